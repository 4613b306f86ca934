/**
 * Programs that write the file an option or operand names (BashProgramsOutput): each written file
 * is a target like a redirect's, and an option that loads code makes the line opaque. That each
 * of them really writes there, and now asks, is checked against real files in
 * test/tool/builtin/bash-protected-oracle.test.ts (`OUTPUTS`).
 */
import { describe, expect, it } from "vitest"
import { file, normalized, parse } from "../../../lib/bash-gate.js"

const targets = (command: string) => normalized(parse(command).targets)

describe("BashProgramsOutput", () => {
  it("reads bash's history -w and -a as writing their file, or $HISTFILE (unknown)", () => {
    expect(targets("history -w ~/.bashrc")).toEqual([file("/home/me/.bashrc")])
    expect(targets("history -a h")).toEqual([file("h")])
    expect(targets("history -w")).toEqual([file(undefined)])
    expect(targets("history -r h")).toEqual([])
    expect(targets("history -c")).toEqual([])
    expect(parse("history -sw x").opaque).toBe(true)
  })

  it("reads openssl's options that end in out, with = or two dashes, and -writerand", () => {
    expect(targets("openssl base64 -d -in p -out .git/config")).toEqual([file(".git/config")])
    expect(targets("openssl enc -d -in p -out=.envrc")).toEqual([file(".envrc")])
    expect(targets("openssl base64 --out f")).toEqual([file("f")])
    expect(targets("openssl req -new -keyout k.pem -out r.csr")).toEqual([file("k.pem"), file("r.csr")])
    expect(targets("openssl rand -writerand seed 4")).toEqual([file("seed")])
    expect(targets("openssl x509 -noout -text -in c.pem")).toEqual([])
    expect(targets("openssl rsa -in k -pubout -out pub.pem")).toEqual([file("pub.pem")])
  })

  it("makes openssl opaque where it loads code or reads its commands from its input", () => {
    for (const command of ["openssl genrsa -engine x 2048", "openssl req -provider x", "openssl req -keyform engine -key x", "openssl", "openssl base64 -out$'x' f"]) expect([command, parse(command).opaque]).toEqual([command, true])
    expect(parse("openssl x509 -inform DER -in c").opaque).toBe(false)
  })

  it("reads logsave's log file, its command judged as a wrapper's", () => {
    expect(targets("logsave -a .git/config true")).toEqual([file(".git/config")])
    expect(parse("logsave log git push o").resources.map((resource) => resource.text)).toContain("git push o")
  })

  it("reads gpg -o/--output (any prefix) and ssh-keygen -f with its .pub", () => {
    expect(targets("gpg -o x -d f.gpg")).toEqual([file("x")])
    expect(targets("gpg --out=x -d f")).toEqual([file("x")])
    expect(targets("gpg -ao x -s f")).toEqual([file("x")])
    expect(targets("gpg --batch --yes --armor --detach-sign -u KEY file")).toEqual([])
    expect(parse("gpg --homedir h -d f").opaque).toBe(true)
    expect(targets("ssh-keygen -t ed25519 -f k -N ''")).toEqual([file("k"), file("k.pub")])
    expect(parse("ssh-keygen -D lib.so").opaque).toBe(true)
  })
})
