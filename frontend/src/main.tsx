import "@mantine/core/styles.css";
import "./styles.css";
import { MantineProvider } from "@mantine/core";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { createAppRouter } from "./app/router.ts";
import { cssVariablesResolver, theme } from "./app/theme.ts";
import { NOTIFICATIONS_KEY } from "./features/agent-notifications/api/notifications.ts";
import { startAnalytics } from "./lib/analytics.ts";
import { i18nReady } from "./lib/i18n.ts";
import { prefillNotificationFromUrl } from "./lib/notifications.ts";
import { takeWritten } from "./lib/page-data.ts";
import { createQueryClient } from "./lib/query-client.ts";
import { sessionFromPage, sessionQueryOptions } from "./lib/session.ts";
import { isPublicPage, sessionHinted } from "./lib/session-hint.ts";

// Before the router reads the URL, so the message parameters never reach a route's search.
prefillNotificationFromUrl();
startAnalytics();

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

// The page's route code and the session start loading now, beside the language catalogue rather than after it.
for (const match of router.matchRoutes(router.latestLocation)) {
  const route = router.routesById[match.routeId as keyof typeof router.routesById];
  if (route) void router.loadRouteChunk(route)?.catch(() => undefined);
}
// Who is signed in and the bell's notifications, as the server wrote them into the page (the bookings page's loader
// takes its list and balances): no request for any of them.
let sessionWritten = false;
const session = takeWritten("session");
if (session !== undefined)
  try {
    sessionFromPage(queryClient, session);
    queryClient.setQueryData(NOTIFICATIONS_KEY, takeWritten("notifications"));
    sessionWritten = true;
  } catch {
    // A session of an unexpected shape: asked for below, as a page without one does.
  }
// Else a guarded page asks for the session anyway: now, beside the catalogue (its check needs no zod).
if (!sessionWritten && (sessionHinted() || !isPublicPage(window.location.pathname)))
  void queryClient.prefetchQuery(sessionQueryOptions());

const root = document.getElementById("root");
if (!root) throw new Error("index.html lacks #root");

// The language's catalogue is one small chunk; rendering before it would flash untranslated keys.
await i18nReady;

// A transition renders concurrently: React yields every few milliseconds, so the first render is many short tasks
// rather than one long one (mobile Total Blocking Time).
const reactRoot = createRoot(root);
startTransition(() =>
  reactRoot.render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);
