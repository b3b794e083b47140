import { requirePrincipal } from "@skyward/infra/http/auth";
import { freshReadModels } from "@skyward/infra/http/read-models";
import { Router } from "express";
import type { QueryDeps } from "../deps.ts";
import { companyScope } from "../scope.ts";

export function balanceRoutes({ pool, readModels }: QueryDeps): Router {
  const router = Router();
  const fresh = freshReadModels(readModels, ["balances", "directory"]);

  /** The balances of the companies the caller may see. */
  router.get("/balances", fresh, async (req, res) => {
    const p = requirePrincipal(req);
    const scope = companyScope(p, 0);
    const { rows } = await pool.query(
      `SELECT c.id AS company_id, c.name AS company_name, coalesce(b.amount, 0) AS amount,
              coalesce(b.currency, c.currency) AS currency
         FROM read.companies c LEFT JOIN read.company_balances b ON b.company_id = c.id
        WHERE ${scope.sql} ORDER BY c.name`,
      scope.params,
    );
    res.json({
      data: rows.map((r) => ({
        company_id: r.company_id,
        company_name: r.company_name,
        balance_amount: { amount: Number(r.amount), currency: r.currency },
      })),
    });
  });

  return router;
}
