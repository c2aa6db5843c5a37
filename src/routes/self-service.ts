// The self-service page for people (GET /keys, src/docs/keys-page.ts): a page over the key API, not an API operation,
// so not in the contract (like /docs).
import type { RegisterRoutes } from "../http/app-env";
import { publicBaseUrl } from "../contract/base-url";
import { KEYS_PAGE_HEADERS, renderKeysPage } from "../docs/keys-page";
import { publicPlans } from "../plans";
import { checkoutAvailability } from "../services/billing-checkout";
import { SERVICE_NAME } from "../version";

/** The first request the page suggests with a new key: a series the shipped data holds. */
const FIRST_REQUEST = "/v1/observations?indicator=UNRATE&region=US&limit=12";

export const registerSelfServiceRoutes: RegisterRoutes = (app, deps) => {
  app.get("/keys", (c) => {
    const base = publicBaseUrl(deps.config, c.req.url);
    const a = checkoutAvailability(deps);
    const body = renderKeysPage({
      base,
      name: SERVICE_NAME,
      docs: `${base}/docs`,
      plans: publicPlans(base),
      available: { free: true, ...a.plans },
      example: FIRST_REQUEST,
    });
    return new Response(body, { headers: KEYS_PAGE_HEADERS });
  });
};
