// Fixed arithmetic, evaluated as bash does; anything else is left to run time.
import { describe, expect, it } from 'vitest';
import { constantArithmetic } from '../../workflows/shell/arithmetic.js';

const known = (values: Record<string, string>, likeliest = false) => (name: string) => (name in values ? { value: values[name]!, likeliest } : undefined);

describe('constantArithmetic', () => {
  it.each<[string, string | undefined]>([
    ['7000+377', '7377'],
    [' 1 + 2 * 3 ', '7'],
    ['(1+2)*3', '9'],
    ['2**10', '1024'],
    ['2**3**2', '512'],
    ['-2**2', '4'],
    ['-3 - -4', '1'],
    ['7/2', '3'],
    ['-7%3', '-1'],
    ['1<<4', '16'],
    ['010', '8'],
    ['0x1F', '31'],
    ['08', undefined],
    ['1/0', undefined],
    ['x+1', undefined],
    ['a=1', undefined],
    ['1>0', undefined],
    ['16#ff', '255'],
    ['36#39U', '4242'],
    ['64#1_', '127'],
    ['2#12', undefined],
    ['65#1', undefined],
    ['(1+2', undefined],
    ['1+'.repeat(40) + '1', undefined],
  ])('%j is %j', (expression, value) => {
    expect(constantArithmetic(expression, known({}))?.value).toBe(value);
  });

  it('reads variables the classifier knows, and says when one is only the likeliest value', () => {
    expect(constantArithmetic('PORT + 1', known({ PORT: '7377' }))).toEqual({ value: '7378', likeliest: false });
    expect(constantArithmetic('p', known({ p: '7377' }, true))).toEqual({ value: '7377', likeliest: true });
    expect(constantArithmetic('p', known({ p: 'abc' }))).toBeUndefined();
  });
});
