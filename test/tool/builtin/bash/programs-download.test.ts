import { describe, expect, it } from "vitest"
import { directory, file, normalized, parse } from "../../../lib/bash-gate.js"

/** The targets of a line, as plain data. */
const targets = (command: string) => normalized(parse(command).targets)

describe("BashProgramsDownload: a file named by the URL or the server is a target", () => {
  it("curl -O lands at the URL's last segment, in --output-dir when given", () => {
    expect(targets("curl -s --output-dir .git -O http://127.0.0.1:8765/config")).toEqual([directory(".git"), file("config", ".git")])
    expect(targets("curl -s -O http://127.0.0.1:8765/.envrc")).toEqual([file(".envrc")])
    expect(targets("curl --remote-name 'http://h/a/.vscode/tasks.json?x=1#f'")).toEqual([file("tasks.json")])
    expect(targets("curl --url http://h/.envrc -O")).toEqual([file(".envrc")])
    expect(targets("curl -O http://h/")).toEqual([])
  })

  it("--remote-name-all names every URL; -o lands in --output-dir too", () => {
    expect(targets("curl --remote-name-all http://h/.envrc http://h/b")).toEqual([file(".envrc"), file("b")])
    expect(targets("curl --output-dir .git -o config http://h/x")).toEqual([directory(".git"), file("config", ".git")])
    expect(targets("curl -o out http://h/x")).toEqual([file("out")])
  })

  it("the server's name (-J), a URL glob, a `#1` output or a URL that is not static cannot be known", () => {
    expect(targets("curl -OJ http://h/x")).toEqual([file(undefined)])
    expect(targets("curl --remote-header-name --remote-name http://h/x")).toEqual([file(undefined)])
    expect(targets("curl -O 'http://h/{.envrc,b}'")).toEqual([file(undefined)])
    expect(targets("curl -g -O 'http://h/{.envrc,b}'")).toEqual([file("{.envrc,b}")])
    expect(targets("curl -o '#1' 'http://h/{.envrc,b}'")).toEqual([file(undefined)])
    expect(targets('curl -O -- "$URL"')).toEqual([file(undefined)])
    expect(targets("curl -O --output-dir \"$D\" http://h/x")).toEqual([directory(undefined), file("x", undefined)])
  })

  it("wget lands at the URL's name (index.html when none), under -P, in host and path folders with -x", () => {
    expect(targets("wget http://h/.envrc")).toEqual([file(".envrc")])
    expect(targets("wget http://h/")).toEqual([file("index.html")])
    expect(targets("wget -q -P .git http://127.0.0.1:8765/config")).toEqual([directory(".git"), file("config", ".git")])
    expect(targets("wget -q -x -nH http://127.0.0.1:8765/.git/config")).toEqual([file(".git/config")])
    expect(targets("wget --force-directories http://127.0.0.1:8765/.git/config")).toEqual([file("127.0.0.1:8765/.git/config")])
    expect(targets("wget -x -nd http://h/a/b")).toEqual([file("b")])
    expect(targets("wget 'http://h/%2eenvrc?a=1'")).toEqual([file(".envrc?a=1")])
    expect(targets("wget -E http://h/a")).toEqual([file("a"), file("a.html")])
    // wget writes its HSTS database where --hsts-file says, when it exits (a sixth review wrote .envrc so).
    expect(targets("wget -q --hsts-file=.envrc -O /dev/null https://h/x")).toContainEqual(file(".envrc"))
    expect(targets("wget --hsts-f .git/hooks/pre-commit https://h/x")).toContainEqual(file(".git/hooks/pre-commit"))
    expect(targets("wget --warc-tempdir=.git https://h/x")).toContainEqual(directory(".git"))
  })

  it("wget -O stays the one file; recursion, lists and server names cannot be known", () => {
    expect(targets("wget -O out http://h/.envrc")).toEqual([file("out")])
    for (const command of ["wget -r http://h/", "wget --mirror http://h/", "wget -m http://h/", "wget -p http://h/a", "wget -i list", "wget --content-disposition http://h/a", "wget -B http://h/ -i l", "wget --trust-server-names http://h/a", "wget -x --cut-dirs 1 http://h/a/b", "wget -- \"$URL\""])
      expect([command, targets(command)]).toEqual([command, [file(undefined)]])
  })
})
