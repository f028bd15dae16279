// What the shell remembers between commands that changes how later words resolve: the working
// directory (cd, pushd, popd), the directory stack, and the functions defined so far.

export class Scope {
  constructor(
    public cwd: string,
    /** False once a `cd` may or may not have run (inside a branch, a loop, to a run-time path). */
    public cwdKnown: boolean,
    /** `cd -` goes here; null when unknown. */
    public previous: string | null,
    public dirStack: string[],
    public functions: Set<string>,
  ) {}

  clone(): Scope {
    return new Scope(this.cwd, this.cwdKnown, this.previous, [...this.dirStack], new Set(this.functions));
  }

  /** After a construct that may have taken either path: known only where both agree. */
  mergeWith(other: Scope): void {
    if (other.cwd !== this.cwd || !other.cwdKnown) this.cwdKnown = false;
    if (other.previous !== this.previous) this.previous = null;
    if (other.dirStack.join('\0') !== this.dirStack.join('\0')) this.dirStack = [];
    for (const name of other.functions) this.functions.add(name);
  }

  assign(other: Scope): void {
    this.cwd = other.cwd;
    this.cwdKnown = other.cwdKnown;
    this.previous = other.previous;
    this.dirStack = other.dirStack;
    this.functions = other.functions;
  }
}
