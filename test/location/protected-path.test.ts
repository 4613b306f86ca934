import { describe, expect, it } from "vitest"
import { ProtectedPath } from "../../src/location/protected-path.js"

const folded = { caseInsensitive: true }

describe("ProtectedPath.NAMES", () => {
  it("lists toolgate's config, git, hooks folders, agent, editor and package manager settings, .envrc and shell start-up files", () => {
    expect(ProtectedPath.NAMES).toEqual([
      "toolgate.json",
      ".toolgate",
      ".git",
      ".hg",
      ".gitmodules",
      ".gitconfig",
      ".config/git",
      ".husky",
      ".githooks",
      ".claude",
      ".claude.json",
      ".mcp.json",
      ".agents",
      ".cursor",
      ".codex",
      ".gemini",
      ".opencode",
      ".config/opencode",
      "opencode.json",
      "opencode.jsonc",
      ".continue",
      ".vscode",
      ".idea",
      ".zed",
      ".devcontainer",
      ".exrc",
      ".nvimrc",
      ".nvim.lua",
      ".dir-locals.el",
      ".dir-locals-2.el",
      ".yarnrc.yml",
      ".yarnrc",
      ".pnpmfile.cjs",
      ".pnpmfile.mjs",
      ".npmrc",
      ".envrc",
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
      ".ssh",
      ".cargo",
      ".local/bin",
      ".config/systemd",
      ".config/autostart",
      ".vimrc",
      ".gvimrc",
      ".config/nvim",
      ".emacs",
      ".emacs.d",
      ".docker/config.json",
      ".kube/config",
      ".aws/config",
      ".config/gh",
      ".tmux.conf",
      ".config/tmux",
      ".gradle/init.d",
      ".gradle/init.gradle",
      ".gradle/init.gradle.kts",
      ".m2/settings.xml",
      ".config/pip",
      ".pip",
      ".curlrc",
      ".wgetrc",
      ".Rprofile",
      ".irbrc",
      ".pryrc",
      ".gdbinit",
      ".config/gdb",
      ".lesskey",
      ".config/lesskey",
      ".less",
      ".config/environment.d",
      ".pam_environment",
      ".xprofile",
      ".xinitrc",
      ".xsession",
    ])
  })
})

describe("ProtectedPath.within", () => {
  const cases: ReadonlyArray<{ readonly path: string; readonly names: ReadonlyArray<string>; readonly caseInsensitive?: boolean }> = [
    { path: ".git/config", names: [".git"] },
    { path: ".git", names: [".git"] },
    { path: "vendor/lib/.git/hooks/pre-commit", names: [".git"] },
    { path: "sub/toolgate.json", names: ["toolgate.json"] },
    { path: ".toolgate/toolgate.json", names: ["toolgate.json", ".toolgate"] },
    { path: ".vscode/.git/x", names: [".git", ".vscode"] },
    { path: ".config/fish/conf.d/x.fish", names: [".config/fish"] },
    { path: ".config/git/config", names: [".config/git"] },
    { path: "docs/.envrc", names: [".envrc"] },
    { path: ".gitignore", names: [] },
    { path: ".github/workflows/ci.yml", names: [] },
    { path: "src/git/config", names: [] },
    { path: ".config/fishy", names: [] },
    { path: "fish/.config", names: [] },
    { path: "my.envrc", names: [] },
    { path: ".GIT/config", names: [] },
    { path: ".GIT/config", names: [".git"], caseInsensitive: true },
    { path: "Toolgate.JSON", names: ["toolgate.json"], caseInsensitive: true },
    { path: ".g\u200cit/config", names: [".git"], caseInsensitive: true },
    { path: ".git./config", names: [".git"], caseInsensitive: true },
    { path: ".git ./config", names: [".git"], caseInsensitive: true },
    { path: ".git::$INDEX_ALLOCATION/config", names: [".git"], caseInsensitive: true },
    { path: "toolgate.j\u017fon", names: ["toolgate.json"], caseInsensitive: true },
    { path: ".\u212Ashrc", names: [".kshrc"], caseInsensitive: true },
    { path: ".config\\fish\\config.fish", names: [".config/fish"] },
  ]
  for (const c of cases) {
    it(`${JSON.stringify(c.path)}${c.caseInsensitive === true ? " on a case-insensitive volume" : ""} holds ${JSON.stringify(c.names)}`, () => {
      expect(ProtectedPath.within(c.path, { caseInsensitive: c.caseInsensitive === true })).toEqual(c.names)
      expect(ProtectedPath.is(c.path, { caseInsensitive: c.caseInsensitive === true })).toBe(c.names.length > 0)
    })
  }
})

describe("ProtectedPath.names", () => {
  const cases: ReadonlyArray<{ readonly pattern: string; readonly names: ReadonlyArray<string>; readonly named: boolean; readonly caseInsensitive?: boolean }> = [
    { pattern: ".vscode/**", names: [".vscode"], named: true },
    { pattern: ".git/config", names: [".git"], named: true },
    { pattern: "**/.git/**", names: [".git"], named: true },
    { pattern: "/work/repo/.envrc", names: [".envrc"], named: true },
    { pattern: ".config/fish/*", names: [".config/fish"], named: true },
    { pattern: "*", names: [".git"], named: false },
    { pattern: "**", names: [".git"], named: false },
    { pattern: "src/**", names: [".git"], named: false },
    { pattern: ".gi?/config", names: [".git"], named: false },
    { pattern: ".git*", names: [".git"], named: false },
    { pattern: "*.git/config", names: [".git"], named: false },
    { pattern: ".config/*/config.fish", names: [".config/fish"], named: false },
    { pattern: "fish/.config", names: [".config/fish"], named: false },
    { pattern: ".vscode/**", names: [".git", ".vscode"], named: false },
    { pattern: ".vscode/.git/**", names: [".git", ".vscode"], named: true },
    { pattern: ".GIT/config", names: [".git"], named: false },
    { pattern: ".GIT/config", names: [".git"], named: true, caseInsensitive: true },
    { pattern: ".git\\config", names: [".git"], named: true },
  ]
  for (const c of cases) {
    it(`${JSON.stringify(c.pattern)} ${c.named ? "names" : "does not name"} ${c.names.join(" and ")}${c.caseInsensitive === true ? " on a case-insensitive volume" : ""}`, () => {
      expect(ProtectedPath.names(c.pattern, c.names, { caseInsensitive: c.caseInsensitive === true })).toBe(c.named)
    })
  }

  it("counts every path as named by any pattern when it holds no protected name", () => {
    expect(ProtectedPath.names("*", [])).toBe(true)
  })
})

describe("ProtectedPath.fold", () => {
  it("keeps a name as written on a case-sensitive volume", () => {
    expect(ProtectedPath.fold(".GIT.")).toBe(".GIT.")
  })

  it("folds case, compatibility forms, ignored code points, streams and trailing dots and spaces where the volume ignores case", () => {
    expect(ProtectedPath.fold(".GIT.", folded)).toBe(".git")
    expect(ProtectedPath.fold("\ufeff.Git \u200d:stream", folded)).toBe(".git")
    expect(ProtectedPath.fold("\uFF0Egit", folded)).toBe(".git")
  })
})

describe("ProtectedPath: tools' own config files", () => {
  it("names the file a tool reads, not the folder around it", () => {
    expect(ProtectedPath.within(".docker/config.json")).toEqual([".docker/config.json"])
    expect(ProtectedPath.within(".docker/Dockerfile")).toEqual([])
    expect(ProtectedPath.within("/home/me/.kube/config")).toEqual([".kube/config"])
    expect(ProtectedPath.within("/home/me/.kube/cache/x")).toEqual([])
    expect(ProtectedPath.within("/home/me/.gradle/init.d/x.gradle")).toEqual([".gradle/init.d"])
    expect(ProtectedPath.within("app/.gradle/8.5/checksums")).toEqual([])
  })
})
