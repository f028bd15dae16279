// The daemon's modules throw catalog errors through this door. The catalog itself is in
// hooks/errors.ts, the one floor that the daemon, the hooks client and the CLI can all
// import (see the comment there); this file only keeps `./errors.js` imports short.
export { gobbyError } from '../hooks/errors.js';
