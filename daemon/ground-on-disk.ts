// gobby's ground as the disk holds it when a Bash command comes: what the engine, which reads no
// files, needs to judge the command and cannot read off its text. Asked only for the commands
// that need it, so an ordinary command costs a scan of its effects and nothing more.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { needsGroundTexts, patchedPaths, usesPathsFoundAtRunTime, type GroundTexts, type ProtectedGround, type ShellAnalysis } from '../workflows/index.js';

/** Files read per command, and bytes read of each: a patch is judged by its first megabyte of headers. */
const MAX_READ_FILES = 8;
const MAX_PATCH_BYTES = 1024 * 1024;
/** A list of paths is judged by its first 256 KB of words (`xargs rm < /tmp/list`). */
const MAX_LIST_BYTES = 256 * 1024;
/** Larger files of gobby's are not read for a search by content: taken to match (a database, a log). */
const MAX_GROUND_TEXT_BYTES = 256 * 1024;

export function groundOnDisk(ground: ProtectedGround, analysis: ShellAnalysis | undefined): ProtectedGround {
  if (analysis === undefined) return ground;
  const existingFolders = foldersLandedOn(ground, analysis);
  const patched = appliesPatch(analysis) ? pathsPatchedBy(analysis) : undefined;
  const groundTexts = needsGroundTexts(analysis) ? textsOf(ground) : undefined;
  const readTexts = usesPathsFoundAtRunTime(analysis) ? textsReadBy(analysis, MAX_LIST_BYTES, ground.secretFiles) : undefined;
  if (existingFolders === undefined && patched === undefined && groundTexts === undefined && readTexts === undefined) return ground;
  return { ...ground, ...(existingFolders && { existingFolders }), ...(patched && { patchedPaths: patched }), ...(groundTexts && { groundTexts }), ...(readTexts && { readTexts }) };
}

/**
 * The text of gobby's files, for a command that changes what a search by content finds (`grep -rl
 * x . | xargs sed -i …`): the settings files and the files known inside gobby's folders, each up
 * to MAX_GROUND_TEXT_BYTES. The token's is never read: whether a pattern matches it would tell the
 * agent something of it. A file that does not exist is left out; one too large or unreadable is null.
 */
function textsOf(ground: ProtectedGround): GroundTexts {
  const texts: Record<string, string | null> = {};
  for (const secret of ground.secretFiles) texts[secret] = null;
  for (const path of [...(ground.protectedPaths ?? []), ...(ground.filesInside ?? [])]) {
    if (path in texts) continue;
    let size: number | undefined;
    try {
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat === undefined || !stat.isFile()) continue;
      size = stat.size;
    } catch {
      texts[path] = null;
      continue;
    }
    texts[path] = size > MAX_GROUND_TEXT_BYTES ? null : (firstBytes(path, MAX_GROUND_TEXT_BYTES) ?? null);
  }
  return texts;
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
  return Object.values(textsReadBy(analysis, MAX_PATCH_BYTES) ?? {}).flatMap(patchedPaths);
}

/** The start of each file the command reads (at most MAX_READ_FILES), but the token; one that cannot be read is left out. */
function textsReadBy(analysis: ShellAnalysis, bytes: number, secretFiles: readonly string[] = []): Record<string, string> | undefined {
  let texts: Record<string, string> | undefined;
  let files = 0;
  for (const effect of analysis.effects) {
    if (effect.kind !== 'read' || effect.path.dynamic || files >= MAX_READ_FILES || texts?.[effect.path.path] !== undefined || secretFiles.includes(effect.path.path)) continue;
    files++;
    const text = firstBytes(effect.path.path, bytes);
    if (text !== undefined) (texts ??= {})[effect.path.path] = text;
  }
  return texts;
}

function firstBytes(path: string, bytes: number): string | undefined {
  let fd: number | undefined;
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) return undefined;
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(bytes);
    const length = readSync(fd, buffer, 0, bytes, 0);
    return buffer.toString('utf8', 0, length);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
