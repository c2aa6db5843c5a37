// Key management (spec "Key management"): signup, rotate, revoke, recover, recover/confirm, and GET /v1/ping.
// None of these is metered or per-minute rate limited; signup, rotation and recovery have limits of their own.
import { createRoute } from "@hono/zod-openapi";
import type { RegisterRoutes } from "../http/app-env";
import { clientIp, requireKey } from "../http/verdicts";
import { registerWithPurpose } from "../http/route-purpose";
import { errorResponses } from "../schemas/errors";
import { publicBaseUrl } from "../contract/base-url";
import { KEY_SECURITY } from "../docs/openapi-access";
import {
  pingResponseSchema,
  recoverBodySchema,
  recoverConfirmBodySchema,
  recoverConfirmResponseSchema,
  recoverResponseSchema,
  revokeBodySchema,
  revokeResponseSchema,
  rotateResponseSchema,
  signupBodySchema,
  signupResponseSchema,
} from "../schemas/keys";
import { revokeKey } from "../services/billing-end";
import { confirmRecovery, requestRecovery } from "../services/key-recovery";
import { keyStatus, rotateKey, signup } from "../services/keys";

const json = <T>(schema: T) => ({ content: { "application/json": { schema } } });

const signupRoute = createRoute({
  method: "post",
  path: "/v1/signup",
  operationId: "signup",
  tags: ["Keys"],
  summary: "Get a free API key",
  description:
    "Issues a free key (60 requests/min, standard indicators) returned exactly once: only its hash is stored. " +
    "At most 5 signups per client address per 24 hours. Attribution fields are validated and never stored with the key.",
  request: { body: { ...json(signupBodySchema), required: true } },
  responses: { 201: { description: "The new key", ...json(signupResponseSchema) }, ...errorResponses(400, 429, 500) },
});

const rotateRoute = createRoute({
  method: "post",
  path: "/v1/keys/rotate",
  operationId: "rotate_key",
  tags: ["Keys"],
  summary: "Rotate the calling key",
  description:
    "Replaces the key's secret; the old one fails at once. Plan, limits, usage and billing carry over. A free key gets the " +
    "new key in the response; a paid key's new key is emailed to the billing address (502 if that email cannot be sent: " +
    "the old key is already dead, recover with POST /v1/keys/recover). At most 5 rotations per key per 24 hours.",
  security: KEY_SECURITY,
  responses: { 200: { description: "Rotated", ...json(rotateResponseSchema) }, ...errorResponses(401, 429, 500, 502) },
});

const revokeRoute = createRoute({
  method: "post",
  path: "/v1/keys/revoke",
  operationId: "revoke_key",
  tags: ["Keys"],
  summary: "Revoke the calling key",
  description:
    "Permanent. A key paying an active subscription needs `cancel_subscription: true` (else 409 SUBSCRIPTION_ACTIVE); the " +
    "subscription then ends at once, the current month's base fee is not refunded, used overage is invoiced and a confirmation is emailed.",
  security: KEY_SECURITY,
  request: { body: { ...json(revokeBodySchema), required: false } },
  responses: {
    200: { description: "Revoked", ...json(revokeResponseSchema) },
    ...errorResponses(400, 401, 409, 500, 502),
  },
});

const recoverRoute = createRoute({
  method: "post",
  path: "/v1/keys/recover",
  operationId: "recover_key",
  tags: ["Keys"],
  summary: "Request a key recovery token",
  description:
    "Always 202 with the same body, whether or not the address matches. When it is the billing email of an active or past-due " +
    "subscription, a single-use `svcr_` token valid 30 minutes is emailed (at most 3 per key per hour). At most 10 requests per " +
    "client address per 24 hours. Free keys cannot be recovered.",
  request: { body: { ...json(recoverBodySchema), required: true } },
  responses: { 202: { description: "Accepted", ...json(recoverResponseSchema) }, ...errorResponses(400, 429, 500) },
});

const recoverConfirmRoute = createRoute({
  method: "post",
  path: "/v1/keys/recover/confirm",
  operationId: "confirm_key_recovery",
  tags: ["Keys"],
  summary: "Confirm a key recovery",
  description:
    "Replaces the key's secret (the old one stops working) and emails the new key to the billing address; the answer carries hints only. " +
    "An invalid, expired or already used token is 400.",
  request: { body: { ...json(recoverConfirmBodySchema), required: true } },
  responses: {
    200: { description: "Recovered", ...json(recoverConfirmResponseSchema) },
    ...errorResponses(400, 500, 502),
  },
});

const pingRoute = createRoute({
  method: "get",
  path: "/v1/ping",
  operationId: "ping",
  tags: ["Keys"],
  summary: "Check a key",
  description:
    "200 for a working key, with its plan, entitlements, rate limit and this month's metered usage. Not metered.",
  security: KEY_SECURITY,
  responses: { 200: { description: "The key works", ...json(pingResponseSchema) }, ...errorResponses(401, 429, 500) },
});

export const registerKeyRoutes: RegisterRoutes = (app, deps) => {
  const base = (url: string) => publicBaseUrl(deps.config, url);

  // Key management has limits of its own and is never counted against the per-minute window; ping has a window of its own.
  registerWithPurpose(app, signupRoute, "key_management", async (c) => {
    const body = c.req.valid("json");
    return c.json(
      await signup(deps, { email: body.email, clientIp: clientIp(c, deps.config), docsUrl: `${base(c.req.url)}/docs` }),
      201,
    );
  });
  registerWithPurpose(app, rotateRoute, "key_management", async (c) =>
    c.json(await rotateKey(deps, requireKey(c), base(c.req.url)), 200),
  );
  // A lapsed customer can still walk away cleanly: revoking lets an expired key through.
  registerWithPurpose(
    app,
    revokeRoute,
    "key_management",
    async (c) => {
      const key = requireKey(c);
      // The body is optional; when present and JSON it was validated against revokeBodySchema.
      const body =
        ((c.req.valid as (t: string) => unknown)("json") as { cancel_subscription?: boolean } | undefined) ?? {};
      return c.json(
        await revokeKey(deps, key, { cancelSubscription: body.cancel_subscription === true, baseUrl: base(c.req.url) }),
        200,
      );
    },
    { allowExpired: true },
  );
  registerWithPurpose(app, recoverRoute, "key_management", async (c) => {
    const body = c.req.valid("json");
    return c.json(
      await requestRecovery(deps, { email: body.email, clientIp: clientIp(c, deps.config), baseUrl: base(c.req.url) }),
      202,
    );
  });
  registerWithPurpose(app, recoverConfirmRoute, "key_management", async (c) =>
    c.json(await confirmRecovery(deps, { token: c.req.valid("json").token, baseUrl: base(c.req.url) }), 200),
  );
  registerWithPurpose(app, pingRoute, "ping", async (c) => c.json(await keyStatus(deps, requireKey(c)), 200));
};
