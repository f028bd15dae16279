// Header names shared by the daemon and its clients. No zod here: the status line command
// imports this and must start fast.

/**
 * Every daemon answer carries this header with the daemon's version, so a client can tell
 * gobby's answers from another program's that happens to hold the port.
 */
export const GOBBY_VERSION_HEADER = 'x-gobby-version';
