import { expect, it } from "@jest/globals";
import express, { Router } from "express";
import { fillPath, listRoutes, pathParams } from "./routes.ts";

it("when an app nests routers, then the route walker lists every route with its mount path, and no middleware", () => {
  const app = express();
  const inner = Router();
  inner.get("/things/:id", (_req, res) => void res.end());
  inner.delete("/things/:id", (_req, res) => void res.end());
  inner.use((_req, _res, next) => next());
  const outer = Router();
  outer.use("/api", inner);
  outer.put("/self", (_req, res) => void res.end());
  app.use(outer);
  app.get("/csrf", (_req, res) => void res.end());
  app.use("/packs", express.static("."));

  expect(listRoutes(app)).toEqual([
    { method: "DELETE", path: "/api/things/:id" },
    { method: "GET", path: "/api/things/:id" },
    { method: "GET", path: "/csrf" },
    { method: "PUT", path: "/self" },
  ]);
});

it("when a path has parameters, then they are named and filled in encoded", () => {
  expect(pathParams("/agencies/:id/supervisors/:supervisorId")).toEqual(["id", "supervisorId"]);
  expect(fillPath("/bookings/:locator", { locator: "AB C" })).toBe("/bookings/AB%20C");
  expect(() => fillPath("/bookings/:locator", {})).toThrow("no value for :locator in /bookings/:locator");
});
