/**
 * The oracle for docker and kubectl in permission/subcommand.ts: a command either does not ship
 * runs a plugin (`~/.docker/cli-plugins/docker-<name>`, `kubectl-<name>` on PATH), which may run
 * any command. Here a plugin the test wrote pushes an image / deletes a pod on a fake daemon or API
 * server on the loopback, and the gate asks about `docker shipit` / `kubectl shipit` under a rule
 * that denies the push / delete, while the programs' own commands are judged as written. The lists
 * match what the real programs complete. Each real part is skipped, with the reason printed, when
 * its program is missing; the gate part needs neither.
 */
import { execFile, spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import http from "node:http"
import type { AddressInfo } from "node:net"
import os from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Subcommand } from "../../src/permission/subcommand.js"
import { decide, rule } from "../lib/bash-gate.js"

const missing = (program: string) => (spawnSync(program, ["--help"]).error === undefined ? undefined : `${program} is not installed`)
const noDocker = missing("docker")
const noKubectl = missing("kubectl")
for (const reason of [noDocker, noKubectl]) if (reason !== undefined) console.warn(`real plugin oracle skipped: ${reason}`)

const root = mkdtempSync(path.join(os.tmpdir(), "toolgate-plugins-"))
const bin = path.join(root, "bin")
mkdirSync(path.join(root, ".docker", "cli-plugins"), { recursive: true })
mkdirSync(bin)
const script = (file: string, body: string) => {
  writeFileSync(file, `#!/bin/sh\n${body}\n`)
  chmodSync(file, 0o755)
}
script(path.join(root, ".docker", "cli-plugins", "docker-shipit"), `[ "$1" = docker-cli-plugin-metadata ] && { echo '{"SchemaVersion":"0.1.0","Vendor":"t","Version":"1"}'; exit 0; }\nexec docker -H "$FAKE" image push img`)
script(path.join(bin, "kubectl-shipit"), `exec kubectl --server "$FAKE" delete pod x`)

/** A loopback server answering as much of docker's and the Kubernetes API as the lines need, recording the rest. */
const requests: string[] = []
const RESOURCES = { kind: "APIResourceList", groupVersion: "v1", resources: [{ name: "pods", singularName: "pod", namespaced: true, kind: "Pod", verbs: ["delete"] }] }
const ANSWERS: Readonly<Record<string, unknown>> = { "/api": { kind: "APIVersions", versions: ["v1"] }, "/apis": { kind: "APIGroupList", apiVersion: "v1", groups: [] }, "/api/v1": RESOURCES }
const server = http.createServer((request, response) => {
  const at = (request.url ?? "").replace(/\?.*$/, "")
  response.setHeader("Api-Version", "1.47")
  response.setHeader("Content-Type", "application/json")
  if (at.endsWith("/_ping")) return void response.end("OK")
  if (ANSWERS[at] !== undefined) return void response.end(JSON.stringify(ANSWERS[at]))
  if (at !== "/version") requests.push(`${request.method} ${at.replace(/^\/v1\.\d+/, "")}`)
  response.statusCode = 404
  response.end(JSON.stringify({ kind: "Status", apiVersion: "v1", status: "Failure", message: "fake", reason: "NotFound", code: 404 }))
})
let port = 0
beforeAll(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve(void (port = (server.address() as AddressInfo).port)))))
afterAll(() => {
  server.close()
  rmSync(root, { recursive: true, force: true })
})

const run = (program: string, fake: string, args: ReadonlyArray<string>) =>
  new Promise<ReadonlyArray<string>>((resolve) => {
    requests.length = 0
    const env = { PATH: `${bin}:${process.env.PATH ?? ""}`, HOME: root, KUBECONFIG: "/dev/null", FAKE: fake }
    execFile(program, args, { env, timeout: 30_000 }, () => resolve([...requests]))
  })

const allowAllBut = (denied: string) => [rule("*", "allow"), rule(denied, "deny")]
const completed = (program: string) =>
  spawnSync(program, ["__complete", ""], { env: { PATH: process.env.PATH ?? "", HOME: root, KUBECONFIG: "/dev/null" }, encoding: "utf8" })
    .stdout.split("\n")
    .flatMap((line) => (/^[a-z]/.test(line) ? [line.split("\t")[0] as string] : []))

describe.skipIf(noDocker !== undefined)("docker's plugins, against real docker", () => {
  it("docker shipit runs a plugin that pushes, and asks under a docker push * deny", async () => {
    expect(await run("docker", `tcp://127.0.0.1:${port}`, ["shipit"])).toEqual(["POST /images/docker.io/library/img/push"])
    expect(decide("docker shipit", allowAllBut("docker push *")).effect).toBe("ask")
  })

  it("docker's own commands are the ones the list names (the test's plugin aside)", () => {
    expect(completed("docker").filter((name) => name !== "shipit" && !Subcommand.DOCKER.includes(name))).toEqual([])
  })
})

describe.skipIf(noKubectl !== undefined)("kubectl's plugins, against real kubectl", () => {
  it("kubectl shipit runs a plugin that deletes, and asks under a kubectl delete * deny", async () => {
    expect(await run("kubectl", `http://127.0.0.1:${port}`, ["shipit"])).toEqual(["DELETE /api/v1/namespaces/default/pods/x"])
    expect(decide("kubectl shipit", allowAllBut("kubectl delete *")).effect).toBe("ask")
  })

  it("kubectl's own commands are the ones the list names", () => {
    expect(completed("kubectl").filter((name) => !Subcommand.KUBECTL.includes(name))).toEqual([])
  })
})

describe("docker's and kubectl's plugins, judged by the gate", () => {
  it("a command the program does not ship asks where a rule denies one of its commands", () => {
    expect(decide("docker shipit", allowAllBut("docker push *")).effect).toBe("ask")
    expect(decide("docker --context x compose push", allowAllBut("docker push *")).effect).toBe("ask")
    expect(decide("kubectl -n prod shipit pod x", allowAllBut("kubectl delete *")).effect).toBe("ask")
  })

  it("their own commands are judged as written, and nothing changes without such a rule", () => {
    expect(decide("docker ps", allowAllBut("docker push *")).effect).toBe("allow")
    expect(decide("kubectl get pods", allowAllBut("kubectl delete *")).effect).toBe("allow")
    expect(decide("docker compose up", allowAllBut("rm *")).effect).toBe("allow")
    expect(decide("kubectl shipit", allowAllBut("rm *")).effect).toBe("allow")
    expect(decide("docker compose up", [...allowAllBut("docker push *"), rule("docker compose up *", "allow")]).effect).toBe("allow")
  })
})
