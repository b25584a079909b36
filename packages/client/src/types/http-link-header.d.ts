// The part of http-link-header (CommonJS, untyped) the client uses. Declared here rather
// than taking @types/http-link-header, which pulls in @types/node: the client must compile
// without Node's types so that a Node-only API cannot slip in.
declare module 'http-link-header' {
  interface Reference {
    uri: string;
    rel: string;
    [attribute: string]: string;
  }
  class Link {
    static parse(value: string): Link;
    refs: Reference[];
    rel(value: string): Reference[];
  }
  export default Link;
}
