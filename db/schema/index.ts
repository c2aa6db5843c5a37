export * from "./catalog";
export * from "./regions";
export * from "./observations";
export * from "./keys";
export * from "./billing";
export * from "./mail";
export * from "./payments";
export * from "./signals";
