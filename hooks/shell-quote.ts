// Quoting for the POSIX shell that runs Claude Code's command hooks (bash -c).

/**
 * `word` as one shell word that the shell passes through unchanged. Inside single quotes
 * nothing is special (no `$`, no backtick, no backslash), so only `'` needs care: it ends
 * the quote, is escaped, and a new quote starts (`'\''`).
 */
export function quoteForShell(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
