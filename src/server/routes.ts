/** Every route of `toolgate serve`, in the order the OpenAPI document lists them. */
export * as ServerRoutes from "./routes.js"

import type { ServerRoute } from "./route.js"
import { LocationRoutes } from "./routes/location.js"
import { PermissionRoutes } from "./routes/permission.js"
import { QuestionRoutes } from "./routes/question.js"
import { RulesRoutes } from "./routes/rules.js"
import { RunRoutes } from "./routes/run.js"
import { SessionRoutes } from "./routes/session.js"
import { ToolRoutes } from "./routes/tool.js"

export const ALL: ReadonlyArray<ServerRoute.Route> = [...PermissionRoutes.ROUTES, ...QuestionRoutes.ROUTES, ...SessionRoutes.ROUTES, ...RunRoutes.ROUTES, ...ToolRoutes.ROUTES, ...RulesRoutes.ROUTES, ...LocationRoutes.ROUTES]
