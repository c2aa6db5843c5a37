import { afterAll } from "bun:test";
import { dropTestDatabases } from "./db";

afterAll(async () => {
  await dropTestDatabases();
});
