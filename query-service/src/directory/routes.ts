import { isAdministrator, requireUserType } from "@skyward/infra/http/auth";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { Router } from "express";
import type { QueryDeps } from "../deps.ts";

export function directoryRoutes({ pool, readModels }: QueryDeps): Router {
  const router = Router();
  const fresh = freshReadModels(readModels, ["directory"]);

  router.get("/agencies", fresh, async (req, res) => {
    const p = requireUserType(req, "Admin", "Support", "Supervisor");
    const { rows } = await pool.query(
      `SELECT a.id, a.name, (SELECT count(*)::int FROM read.companies c WHERE c.agency_id = a.id) AS companies_count
         FROM read.agencies a WHERE $1::boolean OR a.id = $2 ORDER BY a.name`,
      [isAdministrator(p), p.agencyId],
    );
    res.json({ data: rows });
  });

  router.get("/companies", fresh, async (req, res) => {
    const p = requireUserType(req, "Admin", "Support", "Supervisor");
    const { rows } = await pool.query(
      `SELECT id, agency_id, name, currency, shared_bookings FROM read.companies
        WHERE $1::boolean OR agency_id = $2 ORDER BY name`,
      [isAdministrator(p), p.agencyId],
    );
    res.json({ data: rows });
  });

  return router;
}
