// gobby's ground as the disk holds it when a Bash command comes: what the engine, which reads no
// files, needs to judge the command and cannot read off its text. Asked only for the commands
// that need it, so an ordinary command costs a scan of its effects and nothing more.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { patchedPaths, type ProtectedGround, type ShellAnalysis } from '../workflows/index.js';

/** Patch files read per command, and bytes read of each: a patch is judged by its first megabyte of headers. */
const MAX_PATCH_FILES = 8;
const MAX_PATCH_BYTES = 1024 * 1024;

export function groundOnDisk(ground: ProtectedGround, analysis: ShellAnalysis | undefined): ProtectedGround {
  if (analysis === undefined) return ground;
  const existingFolders = foldersLandedOn(ground, analysis);
  const patched = appliesPatch(analysis) ? pathsPatchedBy(analysis) : undefined;
  if (existingFolders === undefined && patched === undefined) return ground;
  return { ...ground, ...(existingFolders && { existingFolders }), ...(patched && { patchedPaths: patched }) };
}

/**
 * The protected folders a copy, move or symbolic link of the command lands on exactly (`cp -r x
 * .claude`) that exist now: onto one that does not, it would become the folder
 * (ProtectedGround.existingFolders). One `stat` each, and only for such a command.
 */
function foldersLandedOn(ground: ProtectedGround, analysis: ShellAnalysis): string[] | undefined {
  const folders = ground.protectedFolders;
  if (folders === undefined) return undefined;
  let existing: string[] | undefined;
  for (const effect of analysis.effects) {
    if ((effect.kind !== 'copy' && effect.kind !== 'move') || effect.to.dynamic || !folders.includes(effect.to.path) || existing?.includes(effect.to.path)) continue;
    if (isFolder(effect.to.path)) (existing ??= []).push(effect.to.path);
  }
  return existing;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false; // not searchable on the way: judged as missing, the cautious reading
  }
}

/** `patch`, `git apply`, `git am`: programs whose input names the files they change. */
function appliesPatch(analysis: ShellAnalysis): boolean {
  return analysis.invocations.some((invocation) => invocation.program === 'patch') || analysis.effects.some((effect) => effect.kind === 'git' && (effect.subcommand === 'apply' || effect.subcommand === 'am'));
}

/**
 * The paths named in the headers of the files the command reads, one of which is the patch it
 * applies (`git apply p.diff`, `patch -p1 < p.diff`, `cat p.diff | git apply`). A file that cannot
 * be read names nothing: the applier could not read it either.
 */
function pathsPatchedBy(analysis: ShellAnalysis): string[] {
  const paths: string[] = [];
  let files = 0;
  for (const effect of analysis.effects) {
    if (effect.kind !== 'read' || effect.path.dynamic || files >= MAX_PATCH_FILES) continue;
    files++;
    const text = firstBytes(effect.path.path);
    if (text !== undefined) paths.push(...patchedPaths(text));
  }
  return paths;
}

function firstBytes(path: string): string | undefined {
  let fd: number | undefined;
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) return undefined;
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(MAX_PATCH_BYTES);
    const length = readSync(fd, buffer, 0, MAX_PATCH_BYTES, 0);
    return buffer.toString('utf8', 0, length);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
