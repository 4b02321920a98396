/** What the web build is made from (see build-inputs.mjs). */
export declare const WEB_BUILD_INPUTS: string[];
