export { add } from "./math";
export * from "./math";
