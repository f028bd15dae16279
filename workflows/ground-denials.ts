// What the model is told when gobby's own ground refuses a tool call, one builder per kind of
// refusal, so that every check words the same refusal the same way.
import type { GuardDenial } from './guards.js';

export function overrideDenial(command: string): GuardDenial {
  if (command === 'gobby hook') {
    return {
      kind: 'override',
      reason: "gobby: `gobby hook` sends hook events as Claude Code does; run from the agent's tools it would forge one, so it is refused. Claude Code sends the session's events itself.",
      because: 'guard: forged hook event',
    };
  }
  return {
    kind: 'override',
    reason:
      `gobby: \`${command}\` changes gobby's own enforcement and only the user may run it. ` +
      'If you believe the workflow is in the wrong phase, say so and ask the user to run the command.',
    because: 'guard: human-only override',
  };
}

/** An override written into a file that runs later, outside the session (`~/.bashrc`, a git hook, a service). */
export function overrideLaterDenial(command: string, file: string): GuardDenial {
  return {
    kind: 'override',
    reason:
      `gobby: this writes \`${command}\` into ${file}, which runs later outside this session; gobby's overrides are the user's to run, now or later. ` +
      'If you believe the workflow is in the wrong phase, say so and ask the user to run the command.',
    because: 'guard: human-only override',
  };
}

export function daemonNetworkDenial(what: string, target: string): GuardDenial {
  return {
    kind: 'daemon-network',
    reason: `gobby: ${what} would talk to gobby's daemon (${target}); its hooks and control API are for Claude Code and the user only.`,
    because: 'guard: network access to the daemon',
  };
}

/** `code`: what the command runs that gobby judges by its text (`code gobby cannot see into`, or code it writes and then runs). */
export function opaqueCodeNamingGround(name: string, code = 'code gobby cannot see into'): GuardDenial {
  return {
    kind: 'protected-file',
    reason:
      `gobby: this command runs ${code}, and it names \`${name}\`, one of gobby's own files (its workflows, ` +
      "its state or Claude Code's hook settings). Code that could change them is refused in every phase. If the workflow or its hooks are wrong, tell the user.",
    because: 'guard: protected file named by opaque code',
  };
}

export function daemonProcessDenial(path: string): GuardDenial {
  return {
    kind: 'secret',
    reason: `gobby: ${path} is the inside of gobby's daemon process (its memory holds the control token); the agent may not read it or write through it.`,
    because: 'guard: control token',
  };
}

export function secretDenial(secret: string): GuardDenial {
  return {
    kind: 'secret',
    reason: `gobby: ${secret} holds gobby's control token; the agent may not read or change it.`,
    because: 'guard: control token',
  };
}

export function secretInTreeDenial(secret: string, folder: string, program: string): GuardDenial {
  return {
    kind: 'secret',
    reason:
      `gobby: \`${program}\` would read every file below ${folder}, gobby's control token (${secret}) among them; the agent may not read it. ` +
      'Read a folder that does not hold it.',
    because: 'guard: control token',
  };
}

export function protectedFileDenial(path: string, program: string): GuardDenial {
  return {
    kind: 'protected-file',
    reason:
      `gobby: ${path} belongs to gobby's own ground (its state, its workflows, or the Claude Code settings that install its hooks), ` +
      `so \`${program}\` may not change it. Ask the user if it needs changing.`,
    because: 'guard: protected file',
  };
}

export function becomesFolderDenial(folder: string, program: string): GuardDenial {
  return {
    kind: 'protected-file',
    reason:
      `gobby: \`${program}\` onto ${folder}, which does not exist, would make that folder a copy of (or a link to) the source, ` +
      "and the Claude Code settings in it, which install gobby's hooks, would be the source's. " +
      `Make the folder first (\`mkdir -p ${folder}\`) and copy into it by name (\`cp -r commands ${folder}/commands\`).`,
    because: 'guard: protected file',
  };
}

export function accessTakenDenial(folder: string, program: string): GuardDenial {
  return {
    kind: 'protected-file',
    reason:
      `gobby: \`${program}\` would change who may open ${folder}, which holds gobby's own ground (its state, its workflows, or the Claude Code settings that install its hooks), ` +
      "and the mode or owner it sets may leave gobby and Claude Code unable to read or change those files. Change only the files you mean (`chmod -R u+w src`), or ask the user.",
    because: 'guard: protected file',
  };
}

export function filesNamedByDataDenial(folder: string, program: string): GuardDenial {
  return {
    kind: 'protected-file',
    reason:
      `gobby: \`${program}\` would put files named by what it reads (an archive's members, a folder's contents) into ${folder}, ` +
      "which holds gobby's own ground (its state, its workflows, or the Claude Code settings that install its hooks), so any of them could be replaced. " +
      (folder === '/'
        ? 'Here the archive keeps absolute or `../` names, which may land anywhere: drop the option that keeps them (`tar -P`, `unzip -:`, `7z -spf`), or give cpio `--no-absolute-filenames`, and unpack into a folder of its own.'
        : 'Unpack or copy into a folder of its own (`tar -xf x.tar -C vendor/`, `unzip x.zip -d data/`), or name what you need (`tar -xf x.tar src/`, `cp -r template/* .`).'),
    because: 'guard: protected file',
  };
}
