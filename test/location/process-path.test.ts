import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { ProcessPath } from "../../src/location/process-path.js"

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "toolgate-process-path-")))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe("ProcessPath.is", () => {
  it("names a walk through the walking process's own folder", () => {
    for (const spelled of ["/proc/self/cwd/.git/config", "/proc/thread-self/cwd/x", "/proc/self/root/etc/passwd", `/proc/${process.pid}/cwd/x`, "/dev/fd/1", "/dev/stdout", "/proc/self/fd/0"]) {
      expect([spelled, ProcessPath.is(spelled)]).toEqual([spelled, true])
    }
  })

  it("names a link anywhere that leads there, dangling or not", () => {
    mkdirSync(path.join(root, "links"))
    symlinkSync("/proc/self/cwd", path.join(root, "links", "cwd"))
    symlinkSync("cwd/../x", path.join(root, "links", "up"))
    symlinkSync("/dev/stdout", path.join(root, "links", "out"))
    expect(ProcessPath.is(path.join(root, "links", "cwd", "config"))).toBe(true)
    expect(ProcessPath.is(path.join(root, "links", "up"))).toBe(true)
    expect(ProcessPath.is(path.join(root, "links", "out"))).toBe(true)
  })

  it("leaves ordinary paths, links between them, and /proc files that are not links alone", () => {
    mkdirSync(path.join(root, "plain", "dir"), { recursive: true })
    writeFileSync(path.join(root, "plain", "file"), "x")
    symlinkSync("dir", path.join(root, "plain", "link"))
    symlinkSync("missing/../gone", path.join(root, "plain", "dangling"))
    for (const spelled of [path.join(root, "plain", "link", "new.txt"), path.join(root, "plain", "dangling"), path.join(root, "plain", "file", "below"), "/proc/sys/kernel/hostname", "/tmp/../etc/x", "/dev/null"]) {
      expect([spelled, ProcessPath.is(spelled)]).toEqual([spelled, false])
    }
  })
})
