import { existsSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { notFound } from "@skyward/infra/http/middleware";
import express, { type RequestHandler, Router } from "express";

/** Hashed file names change with their content: a browser may keep them for a year without asking again. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

/** Precompressed siblings the front-end build writes next to each text asset, best first. */
const ENCODINGS = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
] as const;

/**
 * The built front end under /packs: hashed assets (`assets/`) immutable for a year and sent as their precompressed
 * `.br`/`.gz` file when the browser accepts it (no compression work per request); other files cached an hour;
 * source maps never served.
 */
export function servePacks(dist: string): Router {
  const router = Router();
  const assets = join(dist, "assets");
  const precompressed: RequestHandler = (req, res, next) => {
    res.vary("Accept-Encoding");
    const path = normalize(decodeURIComponent(req.path));
    const file = join(assets, path);
    if (!file.startsWith(`${assets}/`) || !existsSync(file)) return next();
    // Our order, not the browser's: it lists `gzip, deflate, br` yet brotli is the smaller file.
    const choice = ENCODINGS.find(
      (candidate) =>
        req.acceptsEncodings(candidate.encoding) === candidate.encoding &&
        existsSync(file + candidate.suffix),
    );
    if (!choice) return next();
    res.type(extname(file));
    res.set("Content-Encoding", choice.encoding);
    req.url = `${req.path}${choice.suffix}`;
    next();
  };
  // Production builds write none; a map left in dist by a development build stays private all the same.
  router.use((req, res, next) => (req.path.endsWith(".map") ? notFound(req, res, next) : next()));
  router.use(
    "/assets",
    precompressed,
    express.static(assets, {
      index: false,
      fallthrough: false,
      setHeaders: (res) => res.setHeader("Cache-Control", IMMUTABLE),
    }),
  );
  router.use(express.static(dist, { index: false, maxAge: "1h", fallthrough: false }));
  return router;
}
