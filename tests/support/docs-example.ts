// The YAML examples of docs/workflows.md, read as a user would copy them: tests of an example
// run exactly what the docs show, so the two cannot drift apart.
import { readFileSync } from 'node:fs';

/** The first ```yaml block after `anchor` (a heading or a sentence) in docs/workflows.md. */
export function workflowExampleAfter(anchor: string): string {
  const docs = readFileSync(new URL('../../docs/workflows.md', import.meta.url), 'utf8');
  const section = docs.indexOf(anchor);
  if (section < 0) throw new Error(`docs/workflows.md no longer says "${anchor}"`);
  const block = /```yaml\n([\s\S]*?)```/.exec(docs.slice(section));
  if (!block) throw new Error(`docs/workflows.md has no yaml block after "${anchor}"`);
  return block[1]!;
}
