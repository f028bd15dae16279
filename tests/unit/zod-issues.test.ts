import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { describeZodIssue, describeZodIssues } from '../../workflows/zod-issues.js';

const body = z.strictObject({ cwd: z.string().min(1), phase: z.string(), force: z.boolean().optional() });

function issuesOf(value: unknown) {
  const result = body.safeParse(value);
  if (result.success) throw new Error('expected a validation failure');
  return result.error.issues;
}

describe('describeZodIssue', () => {
  it('names the field by its dotted path, or the whole value', () => {
    const [issue] = issuesOf({ cwd: '', phase: 'plan' });
    expect(describeZodIssue(issue!, '(body)')).toBe('cwd: Too small: expected string to have >=1 characters');
    const [whole] = z.object({ a: z.string() }).safeParse('text').error!.issues;
    expect(describeZodIssue(whole!, 'the file')).toMatch(/^the file: /);
    const [nested] = z.object({ phases: z.array(z.object({ name: z.string() })) }).safeParse({ phases: [{ name: 1 }] }).error!.issues;
    expect(describeZodIssue(nested!, '(body)')).toMatch(/^phases\.0\.name: /);
  });

  it('lists unknown keys by name', () => {
    const [issue] = issuesOf({ cwd: '/p', phase: 'plan', forse: true, reasn: 'x' });
    expect(describeZodIssue(issue!, '(body)')).toBe('(body): unknown keys `forse`, `reasn`');
  });
});

describe('describeZodIssues', () => {
  it('joins the first issues', () => {
    const issues = issuesOf({ force: 'yes' });
    expect(issues).toHaveLength(3);
    expect(describeZodIssues(issues, '(body)')).toBe(
      'cwd: Invalid input: expected string, received undefined; phase: Invalid input: expected string, received undefined; force: Invalid input: expected boolean, received string',
    );
    expect(describeZodIssues(issues, '(body)', 1)).toBe('cwd: Invalid input: expected string, received undefined');
  });
});
