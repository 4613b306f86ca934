import { describe, expect, it } from "vitest"
import { BashProgramsUrl } from "../../../../src/tool/builtin/bash/programs-url.js"

describe("BashProgramsUrl", () => {
  it("curl's name is the last path segment as written, dot segments resolved, no query; none when empty", () => {
    expect(BashProgramsUrl.curlName("http://h/a/.envrc?x=1#f")).toBe(".envrc")
    expect(BashProgramsUrl.curlName("h/a%2eb")).toBe("a%2eb")
    expect(BashProgramsUrl.curlName("http://h/a/..")).toBeUndefined()
    expect(BashProgramsUrl.curlName("http://h")).toBeUndefined()
  })

  it("wget's name is decoded (but %2F) with its query, index.html when empty; -x adds host and folders", () => {
    expect(BashProgramsUrl.wgetPath("http://h/%2eenvrc?a=1", { folders: false, host: true })).toBe(".envrc?a=1")
    expect(BashProgramsUrl.wgetPath("http://h/p%2fq", { folders: false, host: true })).toBe("p%2Fq")
    expect(BashProgramsUrl.wgetPath("http://h/", { folders: false, host: true })).toBe(BashProgramsUrl.WGET_INDEX)
    expect(BashProgramsUrl.wgetPath("http://u@h:8/x/../.git/config", { folders: true, host: true })).toBe("h:8/.git/config")
    expect(BashProgramsUrl.wgetPath("http://h:8/.git/config", { folders: true, host: false })).toBe(".git/config")
  })
})
