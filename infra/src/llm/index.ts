export * from "./provider.ts";
