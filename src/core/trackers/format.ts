/**
 * Tracker note format (DESIGN §2 "Trackers"). TO BE IMPLEMENTED (helper B).
 */
export {};
