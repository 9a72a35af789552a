# Forest Showdown: what the referee says (rules/src/forest/news.rs).

seat = Seat { $n } ({ $name })
dealt = You were dealt: { $cards }
round-dealt = Round { $n }: the cards are dealt.
short-hand = One card fewer, +{ $bonus } energy this round: { $names }.
turn-opening = { $who }'s turn: it opens with a showdown.
turn = { $who }'s turn.
showdown-asked = { $asker } asks { $target } for a showdown.
card-laid = You lay down { $card } for the showdown.
card-chosen = { $who } has chosen a card.
takes = { $who } takes { $card }.
stand-off = Stand-off: both keep their cards.
showdown = Showdown: { $asker } plays { $asker-card }, { $target } plays { $target-card }. { $result }
challenge = { $challenger } challenges { $target }: "I want your { $named }, and I'm taking it with my { $with }." { $result }
challenge-right = Right: { $challenger } takes { $named } and goes again.
challenge-wrong = Wrong: { $challenger } gives { $with } to { $target }; the turn is over.
round-time-up = Time! The turn in progress finishes, then the round ends.
timed-out-turn-over = { $who } ran out of time; the turn is over.
timed-out-showdown = { $who } ran out of time; the table asks for a showdown for them.
timed-out-random-card = { $who } ran out of time; a random card is played.
wins = { $who } wins { $what } with { $top }.
share = { $who } share { $what }, with { $top }.
the-round = the round
the-game = the game
energy = { $who } { $score }
round-over = Round { $n } is over. Energy: { $energy }. { $won }
game-over = The game is over. { $won }

## Refusals: why an action is not allowed now
no-death-decay-challenge-used = Death & Decay may be used as a challenging card only once in a turn
no-death-decay-captured = only one Death & Decay card may be captured by challenge in a turn
no-not-started = the game has not started
no-showdown-under-way = a showdown is already under way
no-challenge-on-your-turn = a showdown is under way; challenge on your turn
no-no-showdown = there is no showdown to play a card in
no-not-yourself = choose another player, not yourself
no-opening-showdown = the round opens with a showdown: ask another player for one
no-not-in-showdown = you are not in this showdown
no-already-laid = you have already laid down your card
no-holds-no-cards = { $who } holds no cards
no-not-holding = you do not hold { $card }
no-does-not-eat = { $with } does not eat { $named }

## Your own hand, each change with its amount and why (issue 71)
f-dealt = Round { $round }: { $count } cards in your hand, { $energy } energy.
f-dealt-short = Round { $round }: { $count } cards in your hand, { $energy } energy; one card fewer than others: the short-hand bonus at the count.
f-why-eats = { $a } eats { $b }
f-why-mutual = { $a } and { $b } eat each other
f-why-neither = neither { $a } nor { $b } eats the other
f-why-decay = Death & Decay meets a card that takes it
f-cwhy-mutual = { $a } and { $b } eat each other: in a challenge the challenger takes
f-cwhy-decay = Death & Decay and a card that takes it: in a challenge the challenger wins
f-showdown-eats = Showdown with { $other }: your { $mine } met their { $theirs }; { $why }: you take { $theirs }: +{ $e } energy (hand { $from } → { $to }).
f-showdown-eaten = Showdown with { $other }: your { $mine } met their { $theirs }; { $why }: they take your { $mine }: -{ $e } energy (hand { $from } → { $to }).
f-showdown-stand-off = Showdown with { $other }: your { $mine } met their { $theirs }; { $why }: a stand-off, both keep their cards.
f-challenge-right = You challenged { $other } for { $named } with your { $with } ({ $why }); they held it: you take it: +{ $e } energy (hand { $from } → { $to }), and go again.
f-challenge-wrong = You challenged { $other } for { $named } with your { $with }, but they did not hold it: your { $with } goes to them: -{ $e } energy (hand { $from } → { $to }); your turn is over.
f-challenged-right = { $other } challenged you for your { $named } with their { $with } ({ $why }): it goes to them: -{ $e } energy (hand { $from } → { $to }).
f-challenged-wrong = { $other } challenged you for { $named } with their { $with }, but you did not hold it: their { $with } comes to you: +{ $e } energy (hand { $from } → { $to }).
