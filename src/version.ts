import pkg from "../package.json" with { type: "json" };

export const SERVICE_VERSION: string = pkg.version;
export const CONTRACT_VERSION = "1.0.0";
export const SERVICE_NAME = "Economic Time-Series API";
