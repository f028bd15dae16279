// What the shell remembers between commands that changes how later words resolve: the working
// directory (cd, pushd, popd), the directory stack, and the functions defined so far. Every
// pipeline element and substitution runs in a copy, so copying is cheap: the stack and the
// function names are replaced, never mutated, and copies share them.

export class Scope {
  constructor(
    public cwd: string,
    /** False once a `cd` may or may not have run (inside a branch, a loop, to a run-time path). */
    public cwdKnown: boolean,
    /** `cd -` goes here; null when unknown. */
    public previous: string | null,
    public dirStack: readonly string[],
    public functions: ReadonlySet<string>,
  ) {}

  clone(): Scope {
    return new Scope(this.cwd, this.cwdKnown, this.previous, this.dirStack, this.functions);
  }

  defineFunction(name: string): void {
    if (!this.functions.has(name)) this.functions = new Set([...this.functions, name]);
  }

  pushDirectory(directory: string): void {
    this.dirStack = [...this.dirStack, directory];
  }

  popDirectory(): string | undefined {
    const top = this.dirStack[this.dirStack.length - 1];
    if (top !== undefined) this.dirStack = this.dirStack.slice(0, -1);
    return top;
  }

  /** After a construct that may have taken either path: known only where both agree. */
  mergeWith(other: Scope): void {
    if (other.cwd !== this.cwd || !other.cwdKnown) this.cwdKnown = false;
    if (other.previous !== this.previous) this.previous = null;
    if (other.dirStack !== this.dirStack && other.dirStack.join('\0') !== this.dirStack.join('\0')) this.dirStack = [];
    if (other.functions !== this.functions) for (const name of other.functions) this.defineFunction(name);
  }

  assign(other: Scope): void {
    this.cwd = other.cwd;
    this.cwdKnown = other.cwdKnown;
    this.previous = other.previous;
    this.dirStack = other.dirStack;
    this.functions = other.functions;
  }
}
