/**
 * What the console knows, kept current by the event stream: the working directories, the pending
 * asks and questions of each (loaded from the API, then added and removed by events), and a
 * counter that views watch to reload (an approval saved or revoked, a call settled, a resync).
 */
import type { Api, ServerEvent } from "./api.js"

export interface Ask {
  readonly id: string
  readonly sessionID: string
  readonly action: string
  readonly resources: ReadonlyArray<string>
  readonly save: ReadonlyArray<string>
  readonly allows: { readonly session: ReadonlyArray<string>; readonly project: ReadonlyArray<string> }
  readonly metadata: Readonly<Record<string, unknown>>
  readonly why?: ReadonlyArray<{ readonly resource: string; readonly rule?: { action: string; resource: string; effect: string; source: string }; readonly raised?: { kind: string; names?: string[]; prefix?: string } }>
  readonly createdAt: number
  readonly directory: string
}

export interface QuestionAsk {
  readonly id: string
  readonly sessionID: string
  readonly questions: ReadonlyArray<{ question: string; header: string; options: ReadonlyArray<{ label: string; description?: string }>; multiple?: boolean }>
  readonly directory: string
}

export interface State {
  readonly directories: ReadonlyArray<string>
  readonly asks: ReadonlyArray<Ask>
  readonly questions: ReadonlyArray<QuestionAsk>
  readonly live: boolean
  /** Bumped by every event that may change what a view shows. */
  readonly version: number
}

export const initial: State = { directories: [], asks: [], questions: [], live: false, version: 0 }

const withDirectory = (directories: ReadonlyArray<string>, directory: string | undefined) =>
  directory === undefined || directories.includes(directory) ? directories : [...directories, directory].sort()

/** The state after one event. */
export const apply = (state: State, event: ServerEvent): State => {
  const directories = withDirectory(state.directories, event.directory)
  const version = state.version + 1
  switch (event.type) {
    case "permission.v2.asked":
      if (state.asks.some((ask) => ask.id === event.data.id)) return { ...state, directories }
      return { ...state, directories, version, asks: [...state.asks, { ...event.data, directory: event.directory ?? "" }] }
    case "permission.v2.replied":
      return { ...state, directories, version, asks: state.asks.filter((ask) => ask.id !== event.data.requestID) }
    case "question.v2.asked":
      if (state.questions.some((question) => question.id === event.data.id)) return { ...state, directories }
      return { ...state, directories, version, questions: [...state.questions, { ...event.data, directory: event.directory ?? "" }] }
    case "question.v2.replied":
    case "question.v2.rejected":
      return { ...state, directories, version, questions: state.questions.filter((question) => question.id !== event.data.requestID) }
    case "server.connected":
    case "server.heartbeat":
      return { ...state, directories }
    default:
      return { ...state, directories, version }
  }
}

/** Everything pending, loaded from the API (at start and after a resync). */
export const load = async (api: Api): Promise<Pick<State, "directories" | "asks" | "questions">> => {
  const locations = await api.get<{ root: string; data: ReadonlyArray<{ directory: string }> }>("/api/location")
  const directories = [...new Set([locations.root, ...locations.data.map((location) => location.directory)])].sort()
  const lists = await Promise.all(
    directories.map(async (directory) => {
      const query = `?directory=${encodeURIComponent(directory)}`
      const [asks, questions] = await Promise.all([api.get(`/api/permission/request${query}`), api.get(`/api/question/request${query}`)])
      return {
        asks: (asks.data as Ask[]).map((ask) => ({ ...ask, directory })),
        questions: (questions.data as QuestionAsk[]).map((question) => ({ ...question, directory })),
      }
    }),
  )
  return { directories, asks: lists.flatMap((list) => list.asks), questions: lists.flatMap((list) => list.questions) }
}
