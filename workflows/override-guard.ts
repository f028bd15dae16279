// The escape hatches (`gobby workflow phase --force`, reset, disable, …) are for the human
// at the keyboard (design §3.8). The agent's shell commands pass through PreToolUse first,
// so a Bash call that would run one of them is refused before it runs, whatever phase.
const OVERRIDE_COMMAND =
  /(?:\bgobby\b|\bcli\/main\.js\b)[^\n;|&]*?\b(?:workflow\s+(?:phase|reset|disable|enable|clear|set)|uninstall|install|daemon\s+(?:stop|start))\b/;

/** Returns a deny reason when the shell command would run a human-only gobby command. */
export function findOverrideCommand(command: string): string | null {
  const match = OVERRIDE_COMMAND.exec(command);
  if (!match) return null;
  return (
    `gobby: \`${match[0].trim()}\` changes gobby's own enforcement and only the user may run it. ` +
    'If you believe the workflow is in the wrong phase, say so and ask the user to run the command.'
  );
}
