// What the shell remembers between commands that changes how later words resolve: the working
// directory (cd, pushd, popd), the directory stack, the functions defined so far (with their
// bodies, which run where they are called), and the variables set to fixed text (`f=.claude/
// settings.json; … > $f`). Every pipeline element and substitution runs in a copy, so copying is
// cheap: the stack, the functions and the variables are replaced, never mutated, and copies share them.

/**
 * What a tracked variable holds: fixed text, or a glob the shell matched to file names (`for f in
 * .claude/*.json`), which stands for one of the files it matches.
 */
/**
 * What a variable holds: fixed text, or a value only partly known, as rendered (`{ glob }`): a
 * glob standing for a file it matches (`d=$(mktemp -d)`, `/tmp/build-$$.log`), or, with
 * `unknownAt`, text whose part from there on is only known at run time (`d=$X/.gobby`).
 */
export type VariableValue = string | { readonly glob: string; readonly unknownAt?: number };

const NO_VARIABLES: ReadonlyMap<string, VariableValue> = new Map();
const NO_DESCRIPTORS: ReadonlyMap<number, string> = new Map();
const NO_LINKS: ReadonlyMap<string, string> = new Map();
const NO_PLACES: readonly string[] = [];
/** Folders kept as places the shell may be in; past this many, the working directory is just unknown. */
const MAX_OTHER_PLACES = 8;

/** A function's body as the parser gave it (its span is what a call costs the revisit budget). */
export interface FunctionBody {
  readonly pos: number;
  readonly end: number;
}

export class Scope {
  constructor(
    public cwd: string,
    /** False once a `cd` may or may not have run (inside a branch, a loop, to a run-time path). */
    public cwdKnown: boolean,
    /** `cd -` goes here; null when unknown. */
    public previous: string | null,
    public dirStack: readonly string[],
    public functions: ReadonlyMap<string, FunctionBody>,
    /** Variables whose value is known text; any other variable is only known at run time. */
    public variables: ReadonlyMap<string, VariableValue> = NO_VARIABLES,
    /** File descriptors `exec 3<path` opened on a known path (`/dev/fd/3/x` is then `path/x`). */
    public descriptors: ReadonlyMap<number, string> = NO_DESCRIPTORS,
    /** Symbolic links the command made, link → target (both absolute): not on disk when the daemon looked. */
    public links: ReadonlyMap<string, string> = NO_LINKS,
    /**
     * When `cwdKnown` is false after paths that went to different known folders (`if …; then cd a;
     * fi`, `cd a || cd b`, a loop's body): the folders other than `cwd` the shell may be in.
     */
    public otherCwds: readonly string[] = NO_PLACES,
    /** After a cd to a folder only known at run time (`cd $X`, `cd "$(cat f)"`): the shell may be anywhere, `cwd` is only where it was. */
    public cwdAnywhere = false,
  ) {}

  clone(): Scope {
    return new Scope(this.cwd, this.cwdKnown, this.previous, this.dirStack, this.functions, this.variables, this.descriptors, this.links, this.otherCwds, this.cwdAnywhere);
  }

  /** The shell is in `cwd` now (known or not, as `known` says), whatever folders it may have been in before. */
  moveTo(cwd: string, known: boolean): void {
    this.cwd = cwd;
    this.cwdKnown = known;
    this.otherCwds = NO_PLACES;
    this.cwdAnywhere = false;
  }

  addLink(link: string, target: string): void {
    this.links = new Map(this.links).set(link, target);
  }

  /** `path` undefined: closed, or opened on something only known at run time. */
  openDescriptor(fd: number, path: string | undefined): void {
    if (path === undefined && !this.descriptors.has(fd)) return;
    const next = new Map(this.descriptors);
    if (path === undefined) next.delete(fd);
    else next.set(fd, path);
    this.descriptors = next;
  }

  /** `value` undefined: the variable is set to something only known at run time (or unset). */
  setVariable(name: string, value: VariableValue | undefined): void {
    if (value === undefined && !this.variables.has(name)) return;
    const next = new Map(this.variables);
    if (value === undefined) next.delete(name);
    else next.set(name, value);
    this.variables = next;
  }

  defineFunction(name: string, body: FunctionBody): void {
    if (this.functions.get(name) !== body) this.functions = new Map(this.functions).set(name, body);
  }

  pushDirectory(directory: string): void {
    this.dirStack = [...this.dirStack, directory];
  }

  /** After a construct that may have taken either path: known only where both agree. True if something became unknown. */
  mergeWith(other: Scope): boolean {
    let changed = false;
    if (other.cwd !== this.cwd || other.cwdKnown !== this.cwdKnown || other.otherCwds !== this.otherCwds) {
      if (this.cwdKnown) changed = true;
      this.cwdKnown = false;
      this.mayAlsoBeIn([other.cwd, ...other.otherCwds]);
      this.cwdAnywhere ||= other.cwdAnywhere;
    }
    if (this.previous !== null && other.previous !== this.previous) {
      this.previous = null;
      changed = true;
    }
    if (this.dirStack.length > 0 && other.dirStack !== this.dirStack && other.dirStack.join('\0') !== this.dirStack.join('\0')) {
      this.dirStack = [];
      changed = true;
    }
    if (other.functions !== this.functions) {
      // Defined on either path: a call may run either body, and both were judged where defined.
      for (const [name, body] of other.functions) {
        if (this.functions.has(name)) continue;
        this.defineFunction(name, body);
        changed = true;
      }
    }
    if (other.variables !== this.variables) {
      for (const [name, value] of this.variables) {
        if (other.variables.get(name) === value) continue;
        this.setVariable(name, undefined);
        changed = true;
      }
    }
    // A link made on either path may be there: links are kept, not dropped.
    if (other.links !== this.links) for (const [link, target] of other.links) if (this.links.get(link) !== target) this.addLink(link, target);
    if (other.descriptors !== this.descriptors) {
      for (const [fd, path] of this.descriptors) {
        if (other.descriptors.get(fd) === path) continue;
        this.openDescriptor(fd, undefined);
        changed = true;
      }
    }
    return changed;
  }

  /** The shell is in `cwd` or one of `others`, gobby cannot tell which (`cd src` from one of several folders). */
  moveAmong(cwd: string, others: readonly string[]): void {
    this.moveTo(cwd, false);
    this.mayAlsoBeIn(others);
  }

  /** The shell is in one of `places`, gobby cannot tell which (`popd +$n`). */
  uncertainAmong(places: readonly string[]): void {
    this.cwdKnown = false;
    this.mayAlsoBeIn(places);
  }

  /** Adds folders the shell may be in instead of `cwd` (up to MAX_OTHER_PLACES). */
  private mayAlsoBeIn(places: readonly string[]): void {
    let others = this.otherCwds;
    for (const place of places) {
      if (place === this.cwd || others.includes(place) || others.length >= MAX_OTHER_PLACES) continue;
      others = [...others, place];
    }
    this.otherCwds = others;
  }

  /** Nothing known but the functions: where a loop too long to follow through every iteration leaves the shell. */
  forgetAll(): void {
    this.cwdKnown = false;
    this.otherCwds = NO_PLACES;
    this.cwdAnywhere = true;
    this.previous = null;
    this.dirStack = [];
    this.variables = NO_VARIABLES;
    this.descriptors = NO_DESCRIPTORS;
  }

  /** `eval` of code built at run time may have set any variable. */
  forgetVariables(): void {
    this.variables = NO_VARIABLES;
  }

  assign(other: Scope): void {
    this.cwd = other.cwd;
    this.cwdKnown = other.cwdKnown;
    this.previous = other.previous;
    this.dirStack = other.dirStack;
    this.functions = other.functions;
    this.variables = other.variables;
    this.descriptors = other.descriptors;
    this.links = other.links;
    this.otherCwds = other.otherCwds;
    this.cwdAnywhere = other.cwdAnywhere;
  }
}
