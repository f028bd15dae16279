// jexl ships no type declarations; this covers the part of its API gobby uses.
declare module 'jexl' {
  export interface JexlAst {
    type: string;
    [key: string]: unknown;
  }
  export interface CompiledExpression {
    evalSync(context?: object): unknown;
    _getAst(): JexlAst;
  }
  export class Jexl {
    constructor();
    compile(expression: string): CompiledExpression;
    addFunction(name: string, fn: (...args: never[]) => unknown): void;
    addTransform(name: string, fn: (value: never, ...args: never[]) => unknown): void;
    addBinaryOp(operator: string, precedence: number, fn: (left: never, right: never) => unknown, manualEval?: boolean): void;
    addUnaryOp(operator: string, fn: (right: never) => unknown): void;
    removeOp(operator: string): void;
    evalSync(expression: string, context?: object): unknown;
  }
  const defaultInstance: Jexl & { Jexl: typeof Jexl };
  export default defaultInstance;
}
