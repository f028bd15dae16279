// The files a patch changes, read off its headers: `diff --git a/x b/x`, `--- a/x`, `+++ b/x`,
// `*** x` (a context diff), `rename to x`, `copy to x`, `Index: x`. A patch the agent wrote and
// then applies (`git apply /tmp/p.patch`, `patch -p1 < p.diff`, a here-doc) changes whatever it
// names, gobby's own files among them. Paths are kept as written, prefixes (`a/`, `b/`) and all:
// how many leading folders `-p` strips is the applier's choice, so a check looks at every ending.

/** Headers scanned per text: a patch is judged by the first this many. */
const MAX_HEADERS = 10_000;

const HEADER = /^(?:diff --git (.+)|(?:\+\+\+|---|\*\*\*) (.+?)(?:\t.*)?|(?:rename|copy) (?:from|to) (.+)|Index: (.+))$/;

/** Every path a patch's headers name, unquoted. */
export function patchedPaths(text: string): string[] {
  const paths: string[] = [];
  let headers = 0;
  for (let start = 0; start < text.length && headers < MAX_HEADERS; ) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const first = text.charCodeAt(start);
    // Only lines that can start a header are matched (`d`, `+`, `-`, `*`, `r`, `c`, `I`): most of a patch is its hunks.
    if (first === 100 || first === 43 || first === 45 || first === 42 || first === 114 || first === 99 || first === 73) {
      const match = HEADER.exec(text.slice(start, end).replace(/\r$/, ''));
      if (match !== null) {
        headers++;
        if (match[1] !== undefined) paths.push(...match[1].split(/ (?=(?:"?[ab]\/|"?\/))/).map(unquote));
        else paths.push(unquote((match[2] ?? match[3] ?? match[4])!.trim()));
      }
    }
    start = end + 1;
  }
  return paths.filter((path) => path !== '' && path !== '/dev/null');
}

/** git quotes a path with unusual characters in C style (`"a/\303\251.txt"`). */
function unquote(path: string): string {
  if (!(path.startsWith('"') && path.endsWith('"') && path.length >= 2)) return path;
  return path.slice(1, -1).replace(/\\(["\\])/g, '$1');
}
