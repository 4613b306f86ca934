/**
 * docker's own spellings of one command (BashSynonymsDocker), against real docker: the table
 * matches each command's `Aliases:`, and `docker image push img` sends the same push to a daemon as
 * `docker push img` (a fake daemon on the loopback records what each line asks of it). The gate
 * judges every spelling under a rule written with another. The real-docker part is skipped, with
 * the reason printed, when docker is missing; the gate part needs no docker.
 */
import { execFile, spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import http from "node:http"
import type { AddressInfo } from "node:net"
import os from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BashSynonymsDocker } from "../../../../src/tool/builtin/bash/synonyms-docker.js"
import { decide, rule } from "../../../lib/bash-gate.js"

const unavailable = spawnSync("docker", ["--version"]).error === undefined ? undefined : "docker is not installed"
if (unavailable !== undefined) console.warn(`real-docker synonym oracle skipped: ${unavailable}`)

const home = mkdtempSync(path.join(os.tmpdir(), "toolgate-docker-"))
const ENV = { PATH: process.env.PATH ?? "", HOME: home }
const requests: string[] = []
const daemon = http.createServer((request, response) => {
  response.setHeader("Api-Version", "1.47")
  if (request.url?.endsWith("/_ping") === true) return void response.end("OK")
  requests.push(`${request.method} ${request.url?.replace(/^\/v[0-9.]+/, "").replace(/\?.*$/, "")}`)
  response.statusCode = 500
  response.end(JSON.stringify({ message: "fake daemon" }))
})
let host = ""
beforeAll(() => new Promise<void>((resolve) => daemon.listen(0, "127.0.0.1", () => resolve(void (host = `tcp://127.0.0.1:${(daemon.address() as AddressInfo).port}`)))))
afterAll(() => {
  daemon.close()
  rmSync(home, { recursive: true, force: true })
})

/** What `docker -H <fake> …words` asked the daemon for (after the version ping). */
const asked = (words: ReadonlyArray<string>) =>
  new Promise<ReadonlyArray<string>>((resolve) => {
    requests.length = 0
    execFile("docker", ["-H", host, ...words], { env: ENV, timeout: 20_000 }, () => resolve([...requests]))
  })

const allowAllBut = (denied: string) => [rule("*", "allow"), rule(denied, "deny")]

describe.skipIf(unavailable !== undefined)("docker's spellings, against real docker", () => {
  it("each group is what docker's help lists as the command's aliases", () => {
    for (const group of BashSynonymsDocker.GROUPS) {
      const help = spawnSync("docker", [...(group[0] as string).split(" "), "--help"], { env: ENV, encoding: "utf8" }).stdout
      const aliases = /^Aliases:\n\s*(.*)$/m.exec(help)?.[1]?.split(", ").map((spelling) => spelling.replace(/^docker /, ""))
      expect([group[0], [...(aliases ?? [])].sort()]).toEqual([group[0], [...group].sort()])
    }
  })

  it("docker image push pushes like docker push, and a docker push * deny denies it", async () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["image push img", "docker push *"],
      ["push img", "docker image push *"],
      ["image rm img", "docker rmi *"],
      ["image remove img", "docker rmi *"],
      ["container remove c", "docker rm *"],
      ["rm c", "docker container rm *"],
    ]
    for (const [line, denied] of cases) {
      const canonical = await asked(denied.replace(" *", "").split(" ").slice(1).concat(line.split(" ").slice(-1)))
      expect(canonical.length).toBeGreaterThan(0)
      expect([line, await asked(line.split(" "))]).toEqual([line, canonical])
      expect([line, decide(`docker ${line}`, allowAllBut(denied)).effect]).toEqual([line, "deny"])
    }
  })
})

describe("docker's spellings, judged by the gate", () => {
  it("a rule written with one spelling judges the others, global options before them too", () => {
    expect(decide("docker image push img", allowAllBut("docker push *")).effect).toBe("deny")
    expect(decide("docker --context x image push img", allowAllBut("docker push *")).effect).toBe("deny")
    expect(decide("docker -H unix:///s image push img", allowAllBut("docker push *")).effect).toBe("deny")
    expect(decide("docker push img", allowAllBut("docker image push *")).effect).toBe("deny")
    expect(decide("docker image remove img", allowAllBut("docker rmi *")).effect).toBe("deny")
    expect(decide("docker container rm c", allowAllBut("docker rm *")).effect).toBe("deny")
    expect(decide("docker stack down s", allowAllBut("docker stack rm *")).effect).toBe("deny")
    expect(decide("docker builder build .", allowAllBut("docker build *")).effect).toBe("deny")
  })

  it("other commands and programs are read as before", () => {
    expect(BashSynonymsDocker.synonyms(["docker", "image", "inspect", "img"])).toEqual([])
    expect(BashSynonymsDocker.synonyms(["podman", "image", "push", "img"])).toEqual([])
    expect(decide("docker image inspect img", allowAllBut("docker push *")).effect).toBe("allow")
    expect(decide("docker pull img", allowAllBut("docker push *")).effect).toBe("allow")
  })
})
