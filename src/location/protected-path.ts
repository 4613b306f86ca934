/**
 * Paths inside a Location that decide what runs later, so that writing one is running code:
 * toolgate's own config, a git repository and git's config (hooks, `core.fsmonitor`,
 * `diff.external` run by an allowed `git status`), the hooks folders `core.hooksPath` names by
 * convention (`.husky`, `.githooks`), submodules, the project settings of coding agents and
 * editors (they name MCP servers, hooks, plugins and tasks that start with the program), the
 * package managers' files that name a program they run on any command, direnv's `.envrc`, shell
 * start-up files, and a home folder's ssh, cargo, PATH and login files (HOME_FILES: protected
 * names count outside the Location too). A Location-relative path is protected when a
 * protected name is one of its segments, at any depth (a nested repository runs hooks too, and
 * `--dir sub` reads `sub/toolgate.json`); names with a slash are segments in a row. Only a rule
 * whose pattern has each of those names as literal segments names the path.
 * Gotcha: on a case-insensitive volume names compare as the file system compares them (`fold`).
 */
export * as ProtectedPath from "./protected-path.js"

import { Directories } from "../directories.js"

/** Files a shell (or readline) reads when it starts or exits, in a home folder or `ZDOTDIR`. */
export const SHELL_FILES: ReadonlyArray<string> = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".bash_aliases",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".cshrc",
  ".tcshrc",
  ".login",
  ".logout",
  ".kshrc",
  ".inputrc",
  ".config/fish",
]

/**
 * Coding agents' project settings: each can name a command the agent starts when it opens the
 * project (an MCP server, a hook, a plugin), so writing one runs code in the next session.
 * `.mcp.json` is Claude Code's list of project MCP servers, and `~/.claude.json` (a sibling of
 * `.claude`, not in it) its user-scope ones; `opencode.json(c)`, `.opencode` and the user's
 * `~/.config/opencode` OpenCode's (its plugins load from there); `.agents` holds skills.
 */
export const AGENT_FILES: ReadonlyArray<string> = [".claude", ".claude.json", ".mcp.json", ".agents", ".cursor", ".codex", ".gemini", ".opencode", ".config/opencode", "opencode.json", "opencode.jsonc", ".continue"]

/**
 * Editors' project settings: tasks that run on opening the folder, language-server and tool paths,
 * the dev container's commands (`initializeCommand` runs on the host), and the project start-up
 * files Vim, Neovim and Emacs read.
 */
export const EDITOR_FILES: ReadonlyArray<string> = [".vscode", ".idea", ".zed", ".devcontainer", ".exrc", ".nvimrc", ".nvim.lua", ".dir-locals.el", ".dir-locals-2.el"]

/**
 * Package managers' project files that run or fetch code on any command, scripts or not: Yarn runs
 * the file `yarnPath` names on every `yarn`, pnpm runs `.pnpmfile.cjs` on install, and `.npmrc`
 * names the registry every install fetches from and the shell scripts run in.
 */
export const PACKAGE_MANAGER_FILES: ReadonlyArray<string> = [".yarnrc.yml", ".yarnrc", ".pnpmfile.cjs", ".pnpmfile.mjs", ".npmrc"]

/**
 * What a home folder holds that runs code or lets someone in later, now that protected names count
 * outside the Location: ssh's folder (`authorized_keys` lets a key log in, `config` runs a
 * `ProxyCommand` on every ssh, `git push` and `fetch` included), cargo's config (`[alias]`,
 * `build.rustc-wrapper`, a target's `runner`: code on any `cargo build`; read up the tree, so a
 * project's too), the programs folder on PATH (`~/.local/bin/git` runs for every `git`), what
 * systemd and the desktop start at login, and the start-up files of Vim, Neovim and Emacs.
 */
export const HOME_FILES: ReadonlyArray<string> = [".ssh", ".cargo", ".local/bin", ".config/systemd", ".config/autostart", ".vimrc", ".gvimrc", ".config/nvim", ".emacs", ".emacs.d"]

/**
 * Tools' own config files that name a program they run or a place they fetch code from, each by
 * its exact file (a project's `.docker/` folder of Dockerfiles is not docker's config):
 * docker's and kubectl's credential helpers (`credsStore`, a user's `exec`), the AWS CLI's
 * `credential_process`, gh's shell aliases, tmux's `run-shell` at start, Gradle's init scripts
 * (run by every build), Maven's and pip's package sources, curl's and wget's default options
 * (they name the files every download writes), the start-up files of R, irb, pry and gdb (its
 * `shell` commands run at every start: the fifth bash review ran a push so), less's lesskey files,
 * source and compiled (an `#env` section sets `LESSOPEN`, which every `less` runs: the sixth review
 * pushed so through `~/.lesskey`), and what a desktop
 * login reads (`environment.d`, `.pam_environment`, `.xprofile`, `.xinitrc`, `.xsession`).
 */
export const TOOL_FILES: ReadonlyArray<string> = [
  ...[".docker/config.json", ".kube/config", ".aws/config", ".config/gh", ".tmux.conf", ".config/tmux", ".gradle/init.d", ".gradle/init.gradle", ".gradle/init.gradle.kts"],
  ...[".m2/settings.xml", ".config/pip", ".pip", ".curlrc", ".wgetrc", ".Rprofile", ".irbrc", ".pryrc", ".gdbinit", ".config/gdb", ".lesskey", ".config/lesskey", ".less", ".config/environment.d", ".pam_environment", ".xprofile", ".xinitrc", ".xsession"],
]

/** Every protected name; one with a slash is several segments in a row. */
export const NAMES: ReadonlyArray<string> = [
  Directories.CONFIG_FILE,
  Directories.PROJECT_CONFIG_DIR,
  ".git",
  // Mercurial's repository: `.hg/hgrc` names hooks that hg runs.
  ".hg",
  ".gitmodules",
  ".gitconfig",
  ".config/git",
  // Hooks folders that `core.hooksPath` names by convention (husky, and the plain one): git runs what they hold.
  ".husky",
  ".githooks",
  ...AGENT_FILES,
  ...EDITOR_FILES,
  ...PACKAGE_MANAGER_FILES,
  ".envrc",
  ...SHELL_FILES,
  ...HOME_FILES,
  ...TOOL_FILES,
]

export interface Options {
  /** The Location's volume ignores case (then names fold as `fold` says). */
  readonly caseInsensitive?: boolean
}

/** Code points HFS+ leaves out of names (git's list since CVE-2014-9390: `.g\u200cit` is `.git`). */
const IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu

/**
 * A name as the volume compares it. Case-sensitive: as written. Case-insensitive (APFS, HFS+,
 * NTFS, and Linux volumes that fold): compatibility forms folded (`ſ` is `s`, `K` is `k`),
 * the code points HFS+ ignores removed, an NTFS stream suffix (`.git::$INDEX_ALLOCATION`) and
 * trailing dots and spaces (`.git. `) dropped, and lower case. Folding more than the volume
 * does only makes an odd name ask.
 * @example ProtectedPath.fold(".GIT.", { caseInsensitive: true }) // ".git"
 */
export const fold = (name: string, options: Options = {}): string =>
  options.caseInsensitive === true ? name.normalize("NFKC").replace(IGNORED, "").replace(/:.*$/su, "").replace(/[. ]+$/u, "").toLowerCase() : name

/** Segments of a path or pattern; backslashes separate too, as they do for rule patterns. */
const segmentsOf = (text: string) => text.split(/[\\/]/u)

const PARTS = new Map(NAMES.map((name) => [name, name.split("/")]))

/** Whether `name`'s segments occur in a row in `segments`. */
const occurs = (name: string, segments: ReadonlyArray<string | undefined>) => {
  const parts = PARTS.get(name) ?? [name]
  return segments.some((_, start) => parts.every((part, offset) => segments[start + offset] === part))
}

/**
 * The protected names `relative` (a Location-relative path) holds, in `NAMES` order; none
 * when it is not protected.
 * @example ProtectedPath.within("sub/.git/config") // [".git"]
 */
export const within = (relative: string, options: Options = {}): ReadonlyArray<string> => {
  const segments = segmentsOf(relative).map((segment) => fold(segment, options))
  return NAMES.filter((name) => occurs(name, segments))
}

/** Whether a Location-relative path is protected. */
export const is = (relative: string, options: Options = {}): boolean => within(relative, options).length > 0

/**
 * Whether a rule pattern names every one of `names` (from `within`): each occurs as whole
 * segments of the pattern that have no `*` or `?`. `.vscode/**` names `.vscode`; `*`, `**`,
 * `src/**` and `.vs*` name nothing.
 * @example ProtectedPath.names(".git/config", [".git"]) // true
 */
export const names = (pattern: string, protectedNames: ReadonlyArray<string>, options: Options = {}): boolean => {
  const segments = segmentsOf(pattern).map((segment) => (/[*?]/u.test(segment) ? undefined : fold(segment, options)))
  return protectedNames.every((name) => occurs(name, segments))
}
