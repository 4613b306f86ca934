/**
 * Programs whose sub-command the person's own config may define, so that the word a command
 * spells is not the sub-command that runs: git (an `alias.*` in any config git reads, a
 * `git-<name>` program on PATH, and `help.autocorrect`, which runs the nearest command for a
 * misspelt one), cargo (`[alias]` in any `.cargo/config.toml` up the tree, one a call can write;
 * `+toolchain` before the sub-command), gh (`gh alias set`), npm (any unambiguous prefix of a
 * command: `npm pub` publishes), docker (a CLI plugin `docker-<name>` in `~/.docker/cli-plugins`
 * and the other plugin folders; `docker compose` and `docker buildx` are plugins too), kubectl (a
 * `kubectl-<name>` program on PATH, and kuberc aliases). A bash resource (as the gate spells
 * it: program, sub-command, the rest) whose sub-command is none the program ships may be any of
 * them: `git p origin` may run `git push --force origin`. A rule compares spellings, so the gate
 * asks about it when a rule that denies or asks could match what it may be (evaluate.ts).
 * The names each program ships are its own and cannot be redefined by an alias.
 */
export * as Subcommand from "./subcommand.js"

/** The action whose resources are commands (the bash tool's). */
export const ACTION = "bash"

/** The sub-commands git ships (`git --list-cmds=main`, and later ones). */
export const GIT: ReadonlyArray<string> = [
  ...["add", "am", "annotate", "apply", "archive", "backfill", "bisect", "blame", "branch", "bugreport", "bundle", "cat-file", "check-attr", "check-ignore", "check-mailmap"],
  ...["check-ref-format", "checkout", "checkout-index", "cherry", "cherry-pick", "clean", "clone", "column", "commit", "commit-graph", "commit-tree", "config", "count-objects"],
  ...["credential", "credential-cache", "credential-store", "daemon", "describe", "diagnose", "diff", "diff-files", "diff-index", "diff-pairs", "diff-tree", "difftool"],
  ...["fast-export", "fast-import", "fetch", "fetch-pack", "filter-branch", "fmt-merge-msg", "for-each-ref", "for-each-repo", "format-patch", "fsck", "fsck-objects", "gc"],
  ...["get-tar-commit-id", "grep", "hash-object", "help", "hook", "http-backend", "http-fetch", "http-push", "imap-send", "index-pack", "init", "init-db", "instaweb"],
  ...["interpret-trailers", "last-modified", "log", "ls-files", "ls-remote", "ls-tree", "mailinfo", "mailsplit", "maintenance", "merge", "merge-base", "merge-file", "merge-index"],
  ...["merge-octopus", "merge-one-file", "merge-ours", "merge-recursive", "merge-recursive-ours", "merge-recursive-theirs", "merge-resolve", "merge-subtree", "merge-tree"],
  ...["mergetool", "mktag", "mktree", "multi-pack-index", "mv", "name-rev", "notes", "pack-objects", "pack-redundant", "pack-refs", "patch-id", "pickaxe", "prune", "prune-packed"],
  ...["pull", "push", "quiltimport", "range-diff", "read-tree", "rebase", "receive-pack", "reflog", "refs", "remote", "remote-ext", "remote-fd", "remote-ftp", "remote-ftps"],
  ...["remote-http", "remote-https", "repack", "replace", "replay", "repo", "request-pull", "rerere", "reset", "restore", "rev-list", "rev-parse", "revert", "rm", "send-email", "send-pack"],
  ...["shell", "shortlog", "show", "show-branch", "show-index", "show-ref", "sparse-checkout", "stage", "stash", "status", "stripspace", "submodule", "subtree", "switch"],
  ...["symbolic-ref", "tag", "unpack-file", "unpack-objects", "update-index", "update-ref", "update-server-info", "upload-archive", "upload-pack", "var", "verify-commit"],
  ...["verify-pack", "verify-tag", "version", "web--browse", "whatchanged", "worktree", "write-tree"],
]

/**
 * cargo's own commands. Its one-letter aliases (`b`, `c`, `d`, `r`, `t`, `rm`) are left out:
 * a config's `[alias]` may redefine them.
 */
export const CARGO: ReadonlyArray<string> = [
  ...["add", "bench", "build", "check", "clean", "clippy", "config", "doc", "fetch", "fix", "fmt", "generate-lockfile", "help", "info", "init", "install", "locate-project"],
  ...["login", "logout", "metadata", "miri", "new", "owner", "package", "pkgid", "publish", "read-manifest", "remove", "report", "run", "rustc", "rustdoc", "search", "test"],
  ...["tree", "uninstall", "update", "vendor", "verify-project", "version", "yank"],
]

/** gh's own commands (`gh help`), which `gh alias set` cannot redefine. */
export const GH: ReadonlyArray<string> = [
  ...["agent-task", "alias", "api", "attestation", "auth", "browse", "cache", "codespace", "completion", "config", "extension", "gist", "gpg-key", "help", "issue"],
  ...["label", "org", "pr", "preview", "project", "release", "repo", "ruleset", "run", "search", "secret", "ssh-key", "status", "variable", "version", "workflow"],
]

/**
 * npm's commands and its fixed aliases (`i`, `t`, `run-script`, …; `lib/utils/cmd-list.js`). npm
 * also runs any unambiguous prefix of a command (`npm pub` publishes), so any other word may be one.
 */
export const NPM: ReadonlyArray<string> = [
  ...["access", "adduser", "approve-scripts", "audit", "bugs", "cache", "ci", "completion", "config", "dedupe", "deny-scripts", "deprecate", "diff", "dist-tag", "docs", "doctor"],
  ...["edit", "exec", "explain", "explore", "find-dupes", "fund", "get", "help", "help-search", "init", "install", "install-ci-test", "install-scripts", "install-test", "link", "ll"],
  ...["login", "logout", "ls", "org", "outdated", "owner", "pack", "ping", "pkg", "prefix", "profile", "prune", "publish", "query", "rebuild", "repo", "restart", "root", "run"],
  ...["sbom", "search", "set", "shrinkwrap", "stage", "star", "stars", "start", "stop", "team", "test", "token", "trust", "undeprecate", "uninstall", "unpublish", "unstar"],
  ...["update", "version", "view", "whoami", "author", "home", "issues", "info", "show", "find", "add", "unlink", "remove", "rm", "r", "un", "rb", "list", "ln", "create", "i"],
  ...["it", "cit", "u", "up", "c", "s", "se", "tst", "t", "ddp", "v", "run-script", "clean-install", "clean-install-test", "x", "why", "la", "verison", "ic", "innit", "in", "ins"],
  ...["inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "install-clean", "isntall-clean", "hlep", "dist-tags", "upgrade", "udpate", "rum", "sit", "urn", "ogr", "add-user"],
]

/**
 * The docker CLI's own commands (`docker __complete ""` without plugins, docker 28). A plugin
 * (`compose`, `buildx`, one a call wrote) is none of them: it may run any docker command.
 */
export const DOCKER: ReadonlyArray<string> = [
  ...["attach", "bake", "build", "builder", "checkpoint", "commit", "config", "container", "context", "cp", "create", "diff", "events", "exec", "export", "help", "history"],
  ...["image", "images", "import", "info", "inspect", "kill", "load", "login", "logout", "logs", "manifest", "network", "node", "pause", "plugin", "port", "ps", "pull", "push"],
  ...["rename", "restart", "rm", "rmi", "run", "save", "search", "secret", "service", "stack", "start", "stats", "stop", "swarm", "system", "tag", "top", "trust", "unpause"],
  ...["update", "version", "volume", "wait"],
]

/** kubectl's own commands (`kubectl __complete ""` without plugins, and `alpha`). A plugin may run any. */
export const KUBECTL: ReadonlyArray<string> = [
  ...["alpha", "annotate", "api-resources", "api-versions", "apply", "attach", "auth", "autoscale", "certificate", "cluster-info", "completion", "config", "cordon", "cp"],
  ...["create", "debug", "delete", "describe", "diff", "drain", "edit", "events", "exec", "explain", "expose", "get", "help", "kustomize", "label", "logs", "options", "patch"],
  ...["plugin", "port-forward", "proxy", "replace", "rollout", "run", "scale", "set", "taint", "top", "uncordon", "version", "wait"],
]

export const PROGRAMS: Readonly<Record<string, ReadonlyArray<string>>> = { git: GIT, cargo: CARGO, gh: GH, npm: NPM, docker: DOCKER, kubectl: KUBECTL }

/** The longest rest of a command kept in `Stand.pattern`. */
export const MAX_REST = 512

/** What a resource with a sub-command of the config's may stand for. */
export interface Stand {
  /** Every command it may run: the sub-command replaced by `*` (`git * origin`). */
  readonly pattern: string
  /** The words a rule must spell to name it (`git p`). */
  readonly prefix: string
}

/**
 * What the bash resource `resource` may stand for, when its sub-command is not one its program
 * ships; undefined otherwise (another program, a shipped sub-command, none at all).
 * @example Subcommand.standsFor("git p origin") // { pattern: "git * origin", prefix: "git p" }
 * @example Subcommand.standsFor("git push origin") // undefined
 */
export const standsFor = (resource: string): Stand | undefined => {
  const [program = "", sub, ...rest] = resource.split(" ")
  const shipped = PROGRAMS[program]
  if (shipped === undefined || sub === undefined || sub === "" || shipped.includes(sub)) return undefined
  // An option where the sub-command goes (`git --version`) runs none; cargo's `+toolchain` is not an option.
  if (sub.startsWith("-")) return undefined
  // The rest is the caller's text: with wildcards in it, or long, the pattern keeps only the
  // program (it takes in more, never less), so deciding stays quick whatever the command says.
  const tail = rest.join(" ")
  const literal = tail !== "" && tail.length <= MAX_REST && !/[*?]/.test(tail)
  return { pattern: literal ? `${program} * ${tail}` : `${program} *`, prefix: `${program} ${sub}` }
}
