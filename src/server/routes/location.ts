/**
 * The working directories a server has open (issue 18: the console lists asks across all of
 * them): where `serve` started, the roots it may open, and every Location open now.
 */
export * as LocationRoutes from "./location.js"

import { Effect } from "effect"
import { ServerHub } from "../hub.js"
import { ServerRoute } from "../route.js"

const list = ServerRoute.make({
  method: "GET",
  path: "/api/location",
  tag: "session",
  summary: "The directory serve started in, the allowed roots, and the Locations open now",
  responses: { 200: { description: "{ root, allowed: string[], data: [{ id, directory }] }" } },
  handle: () =>
    Effect.gen(function* () {
      const hub = yield* ServerHub.Service
      const open = yield* hub.open
      return ServerRoute.ok({ root: hub.root, allowed: hub.allowed, data: open.map((info) => ({ id: info.id, directory: info.directory })) })
    }),
})

export const ROUTES: ReadonlyArray<ServerRoute.Route> = [list]
