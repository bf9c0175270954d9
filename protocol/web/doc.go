// Package web lets a person play a bot in a browser (blindfish play): a
// page served on the loopback interface, every asset embedded, where the
// person senses and moves (RBC) or tries moves and reads the referee's
// answers (Kriegspiel; invisible chess, with the belief of the opponent's
// invisible pieces as a heat map) under the chess clocks, while the game runs on the
// server exactly as a match would referee it.
//
// The server holds the game; the page only draws its State and posts the
// person's actions. So a reload, a closed tab or a second tab on the same
// game loses nothing: any page asks for the state and draws it, and the
// first action for a question is the one taken (a second gets 409 with the
// reason). The API answers only requests that carry the session's token,
// which the page's address holds, so another site open in the same
// browser cannot act for the person.
package web
