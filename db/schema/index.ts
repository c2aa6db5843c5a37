export * from "./catalog";
export * from "./regions";
export * from "./observations";
