/**
 * Topic notes (DESIGN §2 "Knowledge and library notes"). TO BE IMPLEMENTED (helper B).
 */
export {};
