/**
 * The runs the server drives (POST /api/session/:id/run), live above the asks: each running
 * session's step, the model's latest text and the step's calls as they settle, with a button that
 * stops the run (its commands are killed). An ended run says how it ended until hidden.
 */
import { useState } from "preact/hooks"
import type { Api } from "./api.js"
import type { Run } from "./store.js"
import { Text } from "./text.js"

export const Runs = ({ api, runs }: { api: Api; runs: ReadonlyArray<Run> }) => {
  const [hidden, setHidden] = useState<ReadonlyArray<string>>([])
  const [note, setNote] = useState<string | undefined>(undefined)
  const shown = runs.filter((run) => !(run.ended !== undefined && hidden.includes(run.sessionID)))
  if (shown.length === 0) return null
  const stop = (run: Run) => api.send("POST", `/api/session/${run.sessionID}/abort`).catch((error: Error) => setNote(error.message))
  return (
    <section class="runs">
      {note === undefined ? null : <p class="error" role="alert">{note}</p>}
      {shown.map((run) => (
        <article key={run.sessionID} class="run" data-testid="run">
          <h2>{run.ended === undefined ? Text.runTitle(run.sessionID, run.step) : Text.runEnded(run.sessionID, run.ended)}</h2>
          {run.text === "" ? null : <p class="run-text" data-testid="run-text">{run.text}</p>}
          {run.calls.length === 0 ? null : <ul>{run.calls.map((call) => <li key={call.toolCallID} data-testid="run-call">{Text.runCall(call.tool, call.kind)}</li>)}</ul>}
          {run.ended === undefined
            ? <button type="button" class="danger" onClick={() => stop(run)}>{Text.stopRun}</button>
            : <button type="button" onClick={() => setHidden([...hidden, run.sessionID])}>{Text.dismissRun}</button>}
        </article>
      ))}
    </section>
  )
}
