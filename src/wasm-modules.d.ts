// WebAssembly files imported by the Worker arrive compiled (wrangler's CompiledWasm rule).
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
