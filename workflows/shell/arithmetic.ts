// Fixed arithmetic, as bash's `$(( … ))` evaluates it: a port or a name computed from numbers
// (`curl localhost:$((7000+377))`, `rm -rf src$((1+1))`) is that number, so it is seen as one.
// Anything the shell could read differently (comparisons, assignments, bases, a variable only
// known at run time) is left to run time.

/** A value and whether it is only the likeliest one (a variable that may have been set unseen). */
export interface KnownValue {
  readonly value: string;
  readonly likeliest: boolean;
}

const ARITHMETIC_TOKEN = /\s*(?:(0[xX][0-9a-fA-F]+|\d+#[0-9A-Za-z@_]+|\d+)|([A-Za-z_]\w*)|(\*\*|<<|>>|[-+*/%()]))/y;
/** Longer expressions are left to run time (a fixed port or count is short). */
const MAX_ARITHMETIC_TEXT = 64;
/** Binary operators from the loosest to the tightest binding; `**` groups to the right. */
const BINARY_LEVELS: readonly (readonly string[])[] = [['<<', '>>'], ['+', '-'], ['*', '/', '%'], ['**']];

/**
 * The value of `$(( … ))` when it is fixed: integers, variables the classifier knows to hold
 * integers, `+ - * / % ** << >>` and parentheses. Undefined for anything else (a variable known
 * only at run time, a comparison, an assignment, division by zero).
 */
export function constantArithmetic(expression: string, variable: (name: string) => KnownValue | undefined): KnownValue | undefined {
  if (expression.length > MAX_ARITHMETIC_TEXT) return undefined;
  const tokens: (bigint | string)[] = [];
  let likeliest = false;
  ARITHMETIC_TOKEN.lastIndex = 0;
  while (ARITHMETIC_TOKEN.lastIndex < expression.trimEnd().length) {
    const match = ARITHMETIC_TOKEN.exec(expression);
    if (match === null) return undefined;
    if (match[1] !== undefined) {
      const number = integerLiteral(match[1]);
      if (number === undefined) return undefined;
      tokens.push(number);
    } else if (match[2] !== undefined) {
      const known = variable(match[2]);
      const number = known === undefined ? undefined : integerLiteral(known.value.trim());
      if (number === undefined) return undefined;
      likeliest ||= known!.likeliest;
      tokens.push(number);
    } else tokens.push(match[3]!);
  }
  let at = 0;
  const operand = (): bigint | undefined => {
    const token = tokens[at++];
    if (typeof token === 'bigint') return token;
    if (token === '-' || token === '+') {
      const inner = operand();
      return inner === undefined ? undefined : token === '-' ? -inner : inner;
    }
    if (token !== '(') return undefined;
    const inner = level(0);
    return tokens[at++] === ')' ? inner : undefined;
  };
  const level = (precedence: number): bigint | undefined => {
    if (precedence === BINARY_LEVELS.length) return operand();
    let left = level(precedence + 1);
    while (left !== undefined && typeof tokens[at] === 'string' && BINARY_LEVELS[precedence]!.includes(tokens[at] as string)) {
      const operator = tokens[at++] as string;
      const right = level(operator === '**' ? precedence : precedence + 1);
      if (right === undefined) return undefined;
      left = applyArithmetic(operator, left, right);
    }
    return left;
  };
  const result = level(0);
  return result === undefined || at !== tokens.length || result > 2n ** 63n || result < -(2n ** 63n) ? undefined : { value: String(result), likeliest };
}

/** An integer as bash's arithmetic reads it: decimal, `0x` hex, and a leading 0 for octal. */
function integerLiteral(text: string): bigint | undefined {
  if (/^-?(?:0[xX][0-9a-fA-F]+|[1-9]\d*|0)$/.test(text)) return BigInt(text);
  // bash's `BASE#DIGITS` (`16#1092`, `36#39U`): digits 0-9, a-z, A-Z, @, _; letters of either case below base 37.
  const based = /^(\d+)#([0-9A-Za-z@_]+)$/.exec(text);
  if (based !== null) return baseN(Number(based[1]), based[2]!);
  if (/^-?0[0-7]+$/.test(text)) return (text.startsWith('-') ? -1n : 1n) * BigInt(`0o${text.replace(/^-?0/, '')}`);
  return undefined;
}

function baseN(base: number, digits: string): bigint | undefined {
  if (base < 2 || base > 64) return undefined;
  let value = 0n;
  for (const digit of digits) {
    const code = digit.charCodeAt(0);
    const d = code <= 57 ? code - 48 : base <= 36 ? (code | 32) - 87 : code >= 97 ? code - 87 : code >= 65 && code <= 90 ? code - 29 : digit === '@' ? 62 : 63;
    if (d < 0 || d >= base) return undefined;
    value = value * BigInt(base) + BigInt(d);
  }
  return value;
}

function applyArithmetic(operator: string, left: bigint, right: bigint): bigint | undefined {
  switch (operator) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '/':
      return right === 0n ? undefined : left / right;
    case '%':
      return right === 0n ? undefined : left % right;
    case '**':
      return right < 0n || right > 64n ? undefined : left ** right;
    case '<<':
      return right < 0n || right > 63n ? undefined : left << right;
    default:
      return right < 0n || right > 63n ? undefined : left >> right;
  }
}
