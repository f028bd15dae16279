// A shell effect as it lands on disk: the daemon reads the real path behind each path a Bash
// command names (daemon/real-paths.ts), and both gobby's own ground and a phase that blocks
// file changes judge the effect through those links too. A link made by an earlier command
// (`ln -s "$PWD/src/app.ts" /tmp/x`, then `echo x > /tmp/x`) does not hide what is written.
import type { PathRef, ShellEffect } from './shell/index.js';

/** The effect with each path replaced by the real one behind its links, or the effect itself when none differs. */
export function throughLinks(effect: ShellEffect, realPaths: ReadonlyMap<string, string>): ShellEffect {
  const real = (ref: PathRef): PathRef => {
    if (ref.path.endsWith('/**')) {
      const folder = realPaths.get(ref.path.slice(0, -3) || '/');
      return folder === undefined ? ref : { path: `${folder === '/' ? '' : folder}/**`, dynamic: true };
    }
    const path = ref.dynamic ? undefined : realPaths.get(ref.path);
    return path === undefined ? ref : { path, dynamic: false };
  };
  // Deleting or moving a link acts on the link: only the folder it is in is followed.
  const realFolder = (ref: PathRef): PathRef => {
    const slash = ref.path.lastIndexOf('/');
    const folder = ref.dynamic || slash <= 0 ? undefined : realPaths.get(ref.path.slice(0, slash));
    return folder === undefined ? ref : { path: `${folder === '/' ? '' : folder}${ref.path.slice(slash)}`, dynamic: false };
  };
  switch (effect.kind) {
    case 'read':
    case 'write': {
      const path = real(effect.path);
      return path === effect.path ? effect : { ...effect, path };
    }
    case 'delete': {
      const path = realFolder(effect.path);
      return path === effect.path ? effect : { ...effect, path };
    }
    case 'copy':
    case 'move': {
      const from = effect.kind === 'move' ? realFolder(effect.from) : real(effect.from);
      const to = real(effect.to);
      return from === effect.from && to === effect.to ? effect : { ...effect, from, to };
    }
    default:
      return effect;
  }
}
