/** Saved approvals per project: what each allows, since when, how many calls it allowed; revoke with confirmation. */
import { useEffect, useState } from "preact/hooks"
import type { Api } from "./api.js"
import { Text } from "./text.js"

interface Approval {
  readonly id: string
  readonly projectID: string
  readonly scope: string
  readonly sessionID?: string
  readonly action: string
  readonly resource: string
  readonly createdAt: number
  readonly directory: string
  readonly used: number
}

const usedBy = (records: ReadonlyArray<any>, id: string) =>
  records.filter((record) => record.effect === "allow" && (record.rules ?? []).some((rule: any) => rule.source?.kind === "saved" && rule.source.id === id)).length

export const Approvals = ({ api, directories, version }: { api: Api; directories: ReadonlyArray<string>; version: number }) => {
  const [list, setList] = useState<ReadonlyArray<Approval>>([])
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set())
  const [confirming, setConfirming] = useState<ReadonlyArray<string> | undefined>(undefined)
  useEffect(() => {
    void Promise.all(
      directories.map(async (directory) => {
        const query = `?directory=${encodeURIComponent(directory)}`
        const [saved, audit] = await Promise.all([api.get(`/api/permission/saved${query}`), api.get(`/api/audit${query}`)])
        return (saved.data as Approval[]).map((approval) => ({ ...approval, directory, used: usedBy(audit.data, approval.id) }))
      }),
    ).then((lists) => setList([...new Map(lists.flat().map((approval) => [approval.id, approval])).values()]))
  }, [directories.join("\n"), version])
  const revoke = async (ids: ReadonlyArray<string>) => {
    for (const id of ids) await api.send("DELETE", `/api/permission/saved/${id}`)
    setConfirming(undefined)
    setPicked(new Set())
    setList(list.filter((approval) => !ids.includes(approval.id)))
  }
  if (list.length === 0) return <p class="empty" data-testid="no-approvals">{Text.approvalsEmpty}</p>
  return (
    <section class="approvals">
      <div class="toolbar">
        <button type="button" disabled={picked.size === 0} onClick={() => setConfirming([...picked])}>{Text.revokeSelected}</button>
        <button type="button" class="danger" onClick={() => setConfirming(list.map((approval) => approval.id))}>{Text.revokeAll}</button>
      </div>
      {confirming === undefined ? null : (
        <div class="confirm" role="alertdialog" data-testid="revoke-confirm">
          {Text.confirmRevoke(confirming.length)}
          <button type="button" class="danger" onClick={() => revoke(confirming)}>{Text.yes}</button>
          <button type="button" onClick={() => setConfirming(undefined)}>{Text.cancel}</button>
        </div>
      )}
      <table>
        <thead><tr><th /><th>Action</th><th>Pattern</th><th>Scope</th><th>Saved</th><th>Used</th><th /></tr></thead>
        <tbody>
          {list.map((approval) => (
            <tr key={approval.id} data-testid="approval" data-id={approval.id}>
              <td><input type="checkbox" aria-label={approval.id} checked={picked.has(approval.id)} onChange={() => setPicked(new Set(picked.has(approval.id) ? [...picked].filter((id) => id !== approval.id) : [...picked, approval.id]))} /></td>
              <td>{approval.action}</td>
              <td><code>{approval.resource}</code></td>
              <td>{approval.scope}{approval.sessionID === undefined ? "" : ` (${approval.sessionID})`}</td>
              <td>{new Date(approval.createdAt).toLocaleString()} · always</td>
              <td>{Text.allowedSince(approval.used)}</td>
              <td><button type="button" onClick={() => setConfirming([approval.id])}>{Text.revoke}</button></td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
