/**
 * What the bash tool learns from a command before it runs it (07): the permission resources,
 * the directories and files the command moves into or writes, and the absolute paths it names.
 * The parser (`BashParse`) produces this; the tool resolves the paths and asks the gate.
 */
export * as BashCommand from "./command.js"

/** One permission resource: a simple command's source text, and the pattern an "always" saves. */
export interface Resource {
  readonly text: string
  /** `<first words up to the arity> *`; undefined when a prefix word is not plain, or the input is opaque. */
  readonly save: string | undefined
}

/**
 * A path the command moves into (`cd`, `pushd`: "directory") or writes (`>`, `>>`, `&>`, `>|`,
 * `tee` operands: "file"). `path` is the word after quote removal, with a leading unquoted `~`
 * expanded to the home directory; undefined when it cannot be known statically (`$DIR`, `$(…)`).
 * `cwd` lists the `cd`/`pushd` targets in effect before it in the same list, in order (undefined
 * when one of them is not static); the tool resolves them left to right from the workdir.
 */
export interface Target {
  readonly kind: "directory" | "file"
  readonly path: string | undefined
  readonly cwd: ReadonlyArray<string | undefined>
  /** What lands inside the target when it is a folder (`cp a b dir`, `mv x .`); only copying programs have it. */
  readonly sources?: ReadonlyArray<Source>
  /**
   * A folder the command moves into or runs in (`cd`, `pushd`, `git -C`), which it does not write
   * by that. Every other folder target is one a program writes into (`tar -C`, `format-patch -o`,
   * `checkout-index --prefix`): a protected one asks like a protected file.
   */
  readonly entered?: boolean
  /**
   * A folder the program writes what its input names into (`tar x`, `unzip`, `patch`, `git
   * apply`: BashInputWrites): the paths cannot be judged where they land, so the tool asks an
   * opaque `edit` of the folder, whatever it holds.
   */
  readonly fed?: boolean
}

/**
 * A file a copying program (`cp`, `mv`, `ln`, `install`, `rsync`) puts into its destination:
 * in a folder, under its own name; a folder source with its whole tree when `tree` says so.
 */
export interface Source {
  /** As a path (from the same place as the target), or undefined when not static. */
  readonly path: string | undefined
  /** For a source that is not static: its text when it is a plain glob the tool can expand (`src/*.txt`). */
  readonly glob?: string
  /** The program brings a folder source with everything in it (`cp -r`, `mv`, `rsync -a`). */
  readonly tree: boolean
  /** `cp --parents`: the source's whole path lands under the folder, not only its name. */
  readonly parents?: boolean
  /** The program takes the source away (`mv`): removing it is writing it. */
  readonly moved?: boolean
}

export interface Parsed {
  /** Distinct resources in order of appearance; never empty for a non-blank command. */
  readonly resources: ReadonlyArray<Resource>
  /** True when the command is opaque (07): then `resources` is the whole command, with no save. */
  readonly opaque: boolean
  readonly targets: ReadonlyArray<Target>
  /** Static absolute-path arguments (after `~` expansion) that are not targets, for the Warnings block. */
  readonly absolutePaths: ReadonlyArray<string>
}
