// What the shell remembers between commands that changes how later words resolve: the working
// directory (cd, pushd, popd), the directory stack, the functions defined so far, and the
// variables set to fixed text (`f=.claude/settings.json; … > $f`). Every pipeline element and
// substitution runs in a copy, so copying is cheap: the stack, the function names and the
// variables are replaced, never mutated, and copies share them.

const NO_VARIABLES: ReadonlyMap<string, string> = new Map();

export class Scope {
  constructor(
    public cwd: string,
    /** False once a `cd` may or may not have run (inside a branch, a loop, to a run-time path). */
    public cwdKnown: boolean,
    /** `cd -` goes here; null when unknown. */
    public previous: string | null,
    public dirStack: readonly string[],
    public functions: ReadonlySet<string>,
    /** Variables whose value is known text; any other variable is only known at run time. */
    public variables: ReadonlyMap<string, string> = NO_VARIABLES,
  ) {}

  clone(): Scope {
    return new Scope(this.cwd, this.cwdKnown, this.previous, this.dirStack, this.functions, this.variables);
  }

  /** `value` undefined: the variable is set to something only known at run time (or unset). */
  setVariable(name: string, value: string | undefined): void {
    if (value === undefined && !this.variables.has(name)) return;
    const next = new Map(this.variables);
    if (value === undefined) next.delete(name);
    else next.set(name, value);
    this.variables = next;
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
    if (other.variables !== this.variables) {
      for (const [name, value] of this.variables) if (other.variables.get(name) !== value) this.setVariable(name, undefined);
    }
  }

  assign(other: Scope): void {
    this.cwd = other.cwd;
    this.cwdKnown = other.cwdKnown;
    this.previous = other.previous;
    this.dirStack = other.dirStack;
    this.functions = other.functions;
    this.variables = other.variables;
  }
}
