"""The engine's messages in German: English template -> German template.

Every template a ``SkatError``, ``SettlementError`` or ``Phrase`` is given in the engine has an
entry here, with the same placeholders (tests/engine/test_messages.py checks both). The words
are a Skat club's (glossary.md): Alleinspieler, Reizwert, Augen, Stiche, mit/ohne, Hand,
Kontra, Re, Bock, Ramsch, eingepasst, Geber, Platz. Field names, option names and JSON values
("declarer_tricks", "option rum", "none") stay as they are written in the record.
"""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    # ------------------------------------------------------------ words inside messages
    "The declarer": "Der Alleinspieler",
    "The declarer's card points": "Die Augenzahl des Alleinspielers",
    "The declarer's tricks": "Die Stichzahl des Alleinspielers",
    "The {game} player's tricks": "Die Stichzahl des Alleinspielers ({game})",
    "The number of Spitze": "Die Zahl der Spitze-Ansagen",
    "The Kontra seat": "Der Kontra-Platz",
    "A seat in passed_18": "Ein Platz in passed_18",
    "The penalised seat": "Der bestrafte Platz",
    "The dealer": "Der Geber",
    "The first dealer": "Der erste Geber",
    "The declarer gave up": "Der Alleinspieler hat aufgegeben",
    "The game was given up": "Das Spiel wurde aufgegeben",
    "Schenken accepted": "Das Schenken wurde angenommen",
    "card points": "Augen",
    "tricks": "Stiche",
    "seat {seat}": "Platz {seat}",
    "Seat {seat}": "Platz {seat}",
    "with {n}": "mit {n}",
    "without {n}": "ohne {n}",
    "{lower} or {higher}": "{lower} oder {higher}",
    "The stake": "Der Einsatz",
    "The lost games": "Die Angabe der verlorenen Spiele",
    "The passed deals": "Die Angabe der eingepassten Spiele",
    "The lost-game fee": "Das Verlustspielgeld",
    "The passed-deal fee": "Das Geld für eingepasste Spiele",
    "The entry fee": "Das Startgeld",
    "The loss cap": "Die Verlustgrenze",
    "The fee of lost-game fee tier {number}": "Das Verlustspielgeld der Stufe {number}",
    # ------------------------------------------------------------ fields.py
    "{key} must be true or false.": "{key} muss true oder false sein.",
    "{what} is missing.": "{what} fehlt.",
    "{what} must be a whole number.": "{what} muss eine ganze Zahl sein.",
    "{what} must be from {low} to {high}, not {value}.":
        "{what} muss zwischen {low} und {high} liegen, nicht {value}.",
    "{what} must be a seat number (0 to {top}).":
        "{what} muss eine Platznummer sein (0 bis {top}).",
    "{what} must be a seat number from 0 to {top}, not {value}.":
        "{what} muss eine Platznummer von 0 bis {top} sein, nicht {value}.",
    # ------------------------------------------------------------ cards.py
    'Cards must be a list such as ["CJ", "H10"].':
        'Die Karten müssen eine Liste sein, etwa ["CJ", "H10"].',
    "{card!r} is not a card: write suit C S H D and rank A 10 K Q J 9 8 7.":
        "{card!r} ist keine Karte: Farbe C S H D (Kreuz, Pik, Herz, Karo) und Wert "
        "A 10 K Q J 9 8 7 schreiben.",
    "A card is listed twice.": "Eine Karte steht doppelt in der Liste.",
    # ------------------------------------------------------------ bidding.py
    "calls must be a list of [seat, call].":
        "calls muss eine Liste aus [Position, Ansage] sein.",
    "Call {index} must be [seat, call] with seat F, M or R.":
        "Ansage {index} muss [Position, Ansage] sein, mit Position F, M oder R.",
    "Call {index}: it is {expected}'s turn, not {who}'s.":
        "Ansage {index}: {expected} ist an der Reihe, nicht {who}.",
    "Call {index}: say a number, yes or pass.":
        "Ansage {index}: eine Zahl, yes (halten) oder pass (passen).",
    "The auction stops while {seat} is to bid.":
        "Das Reizen hört auf, während {seat} noch reizen muss.",
    "Call {index}: {seat} bids or passes.": "Ansage {index}: {seat} reizt oder passt.",
    "Call {index}: {value} is not a legal bid above {current}.":
        "Ansage {index}: {value} ist kein gültiger Reizwert über {current}.",
    "The auction stops while {seat} is to answer.":
        "Das Reizen hört auf, während {seat} noch antworten muss.",
    "Call {index}: {seat} says yes or pass.":
        "Ansage {index}: {seat} hält (yes) oder passt (pass).",
    "Call {index}: Forehand opens with a legal bid or passes.":
        "Ansage {index}: Vorhand reizt mit einem gültigen Reizwert an oder passt.",
    "Call {index} comes after the auction has ended.":
        "Ansage {index} kommt nach dem Ende des Reizens.",
    # ------------------------------------------------------------ deal.py: shared readers
    "{player} sits out this deal and cannot declare.":
        "{player} setzt in diesem Spiel aus und kann nicht Alleinspieler sein.",
    "The bid is missing.": "Der Reizwert fehlt.",
    "The bid must be a number.": "Der Reizwert muss eine Zahl sein.",
    "{bid} cannot be bid under {system}; the nearest bids are {near}.":
        "{bid} kann nach {system} nicht gereizt werden; die nächsten Reizwerte sind {near}.",
    "A quick result is one of {choices}.": "Als Ergebnis gibt es nur: {choices}.",
    "Give the card points or a quick result, not both.":
        "Bitte entweder die Augen oder das Ergebnis (gewonnen, verloren …) angeben, "
        "nicht beides.",
    "This game is won or lost: no Schneider or Schwarz.":
        "Dieses Spiel ist nur gewonnen oder verloren: kein Schneider, kein Schwarz.",
    "Give the tricks or a quick result, not both.":
        "Bitte entweder die Stiche oder das Ergebnis (gewonnen, verloren) angeben, "
        "nicht beides.",
    "With {points} card points say how many tricks the declarer took: it decides Schwarz.":
        "Bei {points} Augen bitte angeben, wie viele Stiche der Alleinspieler gemacht hat: "
        "davon hängt Schwarz ab.",
    "All ten tricks make 120 card points.": "Alle zehn Stiche ergeben 120 Augen.",
    "Without a trick the declarer can have at most {most} card points, not {points}.":
        "Ohne Stich hat der Alleinspieler höchstens {most} Augen, nicht {points}.",
    "{why}: there is no result to record.": "{why}: es gibt kein Ergebnis einzutragen.",
    "{why}: no card points or tricks are recorded.":
        "{why}: Augen und Stiche werden nicht eingetragen.",
    "Give the declarer's ten cards and the two of the skat: 12 cards, not {count}.":
        "Bitte die zehn Karten des Alleinspielers und die zwei aus dem Skat angeben: "
        "12 Karten, nicht {count}.",
    "The cards give {derived}, not {said}.": "Die Karten ergeben {derived}, nicht {said}.",
    "Say with or without how many (matadors), or give the cards.":
        "Bitte angeben, mit oder ohne wie viele gespielt wurde, oder die Karten eingeben.",
    "In {game} the matadors are with or without 1 to {limit} (+n with, −n without), "
    "not {raw!r}.":
        "Bei {game} heißt es mit oder ohne 1 bis {limit} (+n mit, −n ohne), nicht {raw!r}.",
    "Spitze is not played under these rules (option spitze).":
        "Spitze wird nach diesen Regeln nicht gespielt (Option spitze).",
    "Spitze cannot be played in a Null game.": "Beim Null gibt es keine Spitze.",
    "Say whether the declarer made the Spitze.":
        "Bitte angeben, ob der Alleinspieler die Spitze geschafft hat.",
    "No Spitze was announced.": "Es wurde keine Spitze angesagt.",
    'Kontra must be "none", "kontra" or "re".': 'Kontra muss "none", "kontra" oder "re" sein.',
    "Nobody said Kontra, so no seat can have said it.":
        "Niemand hat Kontra gesagt, also kann es auch kein Platz gesagt haben.",
    "Kontra and Re are not played under these rules (option kontra or contra).":
        "Kontra und Re werden nach diesen Regeln nicht gespielt (Option kontra oder contra).",
    "Say which opponent said Kontra.": "Bitte angeben, welcher Gegenspieler Kontra gesagt hat.",
    "The declarer cannot say Kontra against himself.":
        "Der Alleinspieler kann nicht gegen sich selbst Kontra sagen.",
    "{player} sits out this deal and cannot say Kontra.":
        "{player} setzt in diesem Spiel aus und kann nicht Kontra sagen.",
    'Concession must be null, "declarer", "schenken", "schenken_schneider" or '
    '"schenken_schwarz".':
        'Aufgeben/Schenken muss null, "declarer", "schenken", "schenken_schneider" oder '
        '"schenken_schwarz" sein.',
    "A {game} cannot be abandoned.": "Ein {game} kann nicht aufgegeben werden.",
    "Schenken is not played under these rules (option schenken).":
        "Schenken wird nach diesen Regeln nicht gespielt (Option schenken).",
    "Schenken does not apply to Null.": "Beim Null gibt es kein Schenken.",
    # ------------------------------------------------------------ deal.py: games
    "{key!r} is not a game of the International Skat Order: use diamonds, hearts, spades, "
    "clubs, grand or null.":
        "{key!r} ist nach der Internationalen Skatordnung kein Spiel: erlaubt sind diamonds "
        "(Karo), hearts (Herz), spades (Pik), clubs (Kreuz), grand und null.",
    "In a Ramsch round only Ramsch or a Grand Hand can be played.":
        "In einer Ramschrunde wird nur Ramsch oder Grand Hand gespielt.",
    "Passt mir nicht belongs to Hoyle's Tourné.":
        "„Passt mir nicht“ gehört zum Tourné nach Hoyle.",
    "Rum is not played under these rules (option rum).":
        "Rum wird nach diesen Regeln nicht gespielt (Option rum).",
    "Schneider and Schwarz can only be announced in a Hand game.":
        "Schneider und Schwarz können nur in einem Handspiel angesagt werden.",
    "{game} ouvert must be played Hand.": "{game} ouvert muss Hand gespielt werden.",
    "Null has no announcements.": "Beim Null gibt es keine Ansagen.",
    "Null has no matadors.": "Beim Null gibt es kein Mit oder Ohne.",
    "Rum does not apply to Null.": "Beim Null gibt es kein Rum.",
    "{game} ({value}) cannot be declared after a bid of {bid}.":
        "{game} ({value}) reicht nicht für den Reizwert {bid}.",
    "{game} ({value}) cannot be declared after a bid of {bid}; {other} ({other_value}) can.":
        "{game} ({value}) reicht nicht für den Reizwert {bid}; {other} ({other_value}) "
        "würde reichen.",
    "passed_18 must be a list of seats.": "passed_18 muss eine Liste von Plätzen sein.",
    "With Kontra only after 18, say which seats passed at 18 (passed_18, may be empty).":
        "Bei „Kontra erst ab 18“ bitte angeben, welche Plätze bei 18 gepasst haben "
        "(passed_18, darf leer sein).",
    "{player} passed when he could have said or held 18, so he may not say Kontra.":
        "{player} hat gepasst, obwohl er 18 hätte sagen oder halten können, und darf "
        "deshalb nicht Kontra sagen.",
    "{key!r} is not a game of {system}: use {choices}.":
        "{key!r} ist nach {system} kein Spiel: erlaubt sind {choices}.",
    "{game} is not played under these rules (option {option}).":
        "{game} wird nach diesen Regeln nicht gespielt (Option {option}).",
    "In a forced Ramsch round only Ramsch or a Grand Solo can be played.":
        "In einer Zwangsramsch-Runde wird nur Ramsch oder Grand-Solo gespielt.",
    "In the historical systems Hand is part of the game (Solo, Gucki …): leave hand false.":
        "In den historischen Systemen gehört Hand zum Spiel selbst (Solo, Gucki …): hand "
        "bitte auf false lassen.",
    "Only Uno and Duo are declared ouvert here; Nullo Ouvert and Grand Ouvert are games of "
    "their own.":
        "Ouvert angesagt werden hier nur Uno und Duo; Nullo ouvert und Grand Ouvert sind "
        "eigene Spiele.",
    "Schneider and Schwarz can only be announced in a Solo or Grand Solo.":
        "Schneider und Schwarz können nur in einem Solo oder Grand-Solo angesagt werden.",
    "{key} is an option of the International Skat Order only.":
        "{key} gibt es nur als Option der Internationalen Skatordnung.",
    "Spitze is an option of the International Skat Order only.":
        "Spitze gibt es nur als Option der Internationalen Skatordnung.",
    "Passt mir nicht applies only to a Hoyle Tourné.":
        "„Passt mir nicht“ gibt es nur beim Tourné nach Hoyle.",
    "{game} has no matadors.": "Bei {game} gibt es kein Mit oder Ohne.",
    "Nullo with tricks is scored by the number of tricks: give declarer_tricks.":
        "Nullo mit Stichen wird nach der Zahl der Stiche gewertet: bitte die Stiche angeben "
        "(declarer_tricks).",
    # ------------------------------------------------------------ deal.py: other records
    "{key} does not apply to a {kind} record.": "{key} passt nicht zu einem Eintrag „{kind}“.",
    "Kontra does not apply to a {kind} record.": "Kontra passt nicht zu einem Eintrag „{kind}“.",
    'A penalty needs {{"seat": …, "points": …, "reason": …}}.':
        'Eine Strafe braucht {{"seat": …, "points": …, "reason": …}}.',
    "Unknown penalty field.": "Unbekanntes Feld in der Strafe.",
    "Penalty points must be a whole number above 0.":
        "Die Strafpunkte müssen eine ganze Zahl über 0 sein.",
    "The reason must be text.": "Der Grund muss ein Text sein.",
    # ------------------------------------------------------------ options.py
    "Option {key} must be true or false.": "Option {key} muss true oder false sein.",
    "Option {key} must be a whole number from {low} to {high}.":
        "Option {key} muss eine ganze Zahl von {low} bis {high} sein.",
    "Option {key} must be one of {choices}.":
        "Option {key} muss einer dieser Werte sein: {choices}.",
    "Option bock must be null (off) or an object.":
        "Option bock muss null (aus) oder ein Objekt sein.",
    "Bock triggers must be a list of: {choices}.":
        "Die Bock-Auslöser müssen eine Liste aus diesen Werten sein: {choices}.",
    "Unknown Bock option {key!r}.": "Unbekannte Bock-Option {key!r}.",
    "Option {key} must be a list of: {choices}.":
        "Option {key} muss eine Liste aus diesen Werten sein: {choices}.",
    "Unknown rule system: use one of {choices}.": "Unbekanntes Regelwerk: erlaubt sind {choices}.",
    "Options must be an object.": "Die Optionen müssen ein Objekt sein.",
    "Unknown option {key!r} for rule system {system}.":
        "Unbekannte Option {key!r} für das Regelwerk {system}.",
    "Ramsch rounds after Bock need option ramsch on.":
        "Ramschrunden nach Bock brauchen die Option ramsch.",
    'Ramsch rounds after Bock need Bock stacking "queue".':
        'Ramschrunden nach Bock brauchen die Bock-Reihenfolge "queue".',
    "Forced Ramsch needs option ramsch on.": "Zwangsramsch braucht die Option ramsch.",
    "Option {key} needs option ramsch on.": "Die Option {key} braucht die Option ramsch.",
    "Kontra on a Ramsch needs option kontra.":
        "Kontra beim Ramsch braucht die Option kontra.",
    "Option ramsch_round_grand_hand applies to Ramsch rounds after Bock: it needs "
    "bock.ramsch_round_after.":
        "Die Option ramsch_round_grand_hand gilt für Ramschrunden nach Bock: sie braucht "
        "bock.ramsch_round_after.",
    "Option {key} must be null (no cap) or a whole number from {low} to {high}.":
        "Die Option {key} muss null (keine Deckelung) oder eine ganze Zahl von {low} bis "
        "{high} sein.",
    # ------------------------------------------------------------ ramsch.py
    "Give the {what} of each player in the Ramsch.":
        "Bitte die {what} jedes Spielers im Ramsch angeben.",
    "Give the {what} of exactly the seats who played: {seats}.":
        "Bitte die {what} genau der Spieler angeben, die mitgespielt haben: {seats}.",
    "The {what} of {player} must be a whole number from 0 to {high}.":
        "Die {what} von {player} müssen eine ganze Zahl von 0 bis {high} sein.",
    "A Ramsch needs the card points and tricks of each player.":
        "Ein Ramsch braucht die Augen und Stiche jedes Spielers.",
    "Unknown Ramsch field.": "Unbekanntes Feld im Ramsch.",
    "{player} took no trick but has {points} card points.":
        "{player} hat keinen Stich gemacht, aber {points} Augen.",
    "The tricks must add up to 10, not {total}.":
        "Die Stiche müssen zusammen 10 ergeben, nicht {total}.",
    "The skat counts for nobody here: give its card points (0 to 22).":
        "Der Skat zählt hier für niemanden: bitte seine Augen angeben (0 bis 22).",
    "The skat goes to a player here; count it in his card points.":
        "Der Skat geht hier an einen Spieler; bitte in dessen Augen mitzählen.",
    "The card points must add up to {expected}, not {total}.":
        "Die Augen müssen zusammen {expected} ergeben, nicht {total}.",
    "Pushes must be a whole number from 0 to 3.":
        "Geschoben wird 0- bis 3-mal: bitte eine ganze Zahl von 0 bis 3.",
    "Schieberamsch is not played under these rules (option schieberamsch).":
        "Schieberamsch wird nach diesen Regeln nicht gespielt (Option schieberamsch).",
    "jacks_pushed must be true or false.": "jacks_pushed muss true oder false sein.",
    "A loser's seat": "Der Platz eines Verlierers",
    "Kontra on a Ramsch is not played under these rules (option ramsch_kontra).":
        "Kontra beim Ramsch wird nach diesen Regeln nicht gespielt (Option ramsch_kontra).",
    "The Durchmarsch seat": "Der Platz des Durchmarschs",
    "{low} to {high}": "{low} bis {high}",
    "Give the Ramsch either as every player's card points and tricks or in the short form "
    "(losers, jungfrau, durchmarsch), not both.":
        "Bitte den Ramsch entweder mit Augen und Stichen jedes Spielers oder in der Kurzform "
        "(losers, jungfrau, durchmarsch) angeben, nicht beides.",
    "{player} sits out this deal and did not play the Ramsch.":
        "{player} setzt in diesem Spiel aus und hat nicht mitgeramscht.",
    "losers maps each losing seat to his card points, e.g. {example}.":
        "losers ordnet jedem verlierenden Platz seine Augen zu, z. B. {example}.",
    "jungfrau is the number of players without a trick: 0, 1 or 2.":
        "jungfrau ist die Zahl der Spieler ohne Stich: 0, 1 oder 2.",
    "After a Durchmarsch nobody else loses: leave losers empty.":
        "Nach einem Durchmarsch verliert sonst niemand: losers bitte leer lassen.",
    "After a Durchmarsch the other two took no trick: jungfrau is 2.":
        "Nach einem Durchmarsch haben die beiden anderen keinen Stich: jungfrau ist 2.",
    "Name the player(s) with the most card points (losers), or the Durchmarsch.":
        "Bitte den oder die Spieler mit den meisten Augen (losers) oder den Durchmarsch "
        "angeben.",
    "Two players without a trick means the third took every trick: record it as a "
    "Durchmarsch.":
        "Zwei Spieler ohne Stich heißt, der dritte hat alle Stiche: bitte als Durchmarsch "
        "eintragen.",
    "Tied losers have the same card points, not {numbers}.":
        "Gleichauf liegende Verlierer haben dieselben Augen, nicht {numbers}.",
    "All three tied with card points, so each took a trick: jungfrau is 0.":
        "Alle drei haben gleich viele Augen, also jeder einen Stich: jungfrau ist 0.",
    "A single loser has {span} card points here, not {points}.":
        "Ein einzelner Verlierer hat hier {span} Augen, nicht {points}.",
    "Two tied losers have {span} card points each here, not {points}.":
        "Zwei gleichauf liegende Verlierer haben hier je {span} Augen, nicht {points}.",
    "Three tied players have {span} card points each here, not {points}.":
        "Drei gleichauf liegende Spieler haben hier je {span} Augen, nicht {points}.",
    # ------------------------------------------------------------ table.py
    "A table has 3 to 6 people.": "An einem Tisch sitzen 3 bis 6 Personen.",
    "Players must be 3 to 6 names (or their number).":
        "Die Spieler müssen 3 bis 6 Namen sein (oder ihre Anzahl).",
    "Every player needs a name (up to 100 characters).":
        "Jeder Spieler braucht einen Namen (bis zu 100 Zeichen).",
    "Two players have the same name.": "Zwei Spieler haben denselben Namen.",
    "Language must be one of {choices}.": "Die Sprache muss einer dieser Werte sein: {choices}.",
    "Unknown field {key!r}.": "Unbekanntes Feld {key!r}.",
    "A Bock round is queued by hand only with option bock.manual.":
        "Eine Bockrunde wird nur mit der Option bock.manual von Hand angesetzt.",
    "A {kind} record does not count, so it starts no Bock round.":
        "Ein Eintrag „{kind}“ zählt nicht und setzt daher keine Bockrunde an.",
    "Bock is set by hand only with option bock.manual.":
        "Bock wird nur mit der Option bock.manual von Hand gesetzt.",
    "bock_manual marks a Bock level set by hand: give the level (bock).":
        "bock_manual kennzeichnet eine von Hand gesetzte Bockstufe: bitte die Stufe (bock) "
        "angeben.",
    "This deal is played at Bock level {level}, not {said}; a table sets Bock by hand only "
    "with option bock.manual.":
        "Dieses Spiel hat Bockstufe {level}, nicht {said}; von Hand wird Bock nur mit der "
        "Option bock.manual gesetzt.",
    "Bock must be null or a level: 0, 1 (×2), 2 (×4) …":
        "Bock muss null oder eine Bockstufe sein: 0, 1 (×2), 2 (×4) …",
    "{key} does not apply to a game record.": "{key} passt nicht zu einem Spiel.",
    "kind must be one of {choices}.": "kind muss einer dieser Werte sein: {choices}.",
    "ramsch does not apply to a {kind} record.": "ramsch passt nicht zu einem Eintrag „{kind}“.",
    "penalty does not apply to a {kind} record.":
        "penalty passt nicht zu einem Eintrag „{kind}“.",
    "In a Ramsch round every deal is played: Ramsch or a Grand Hand.":
        "In einer Ramschrunde wird jedes Spiel gespielt: Ramsch oder Grand Hand.",
    "Ramsch is not played under these rules (option ramsch).":
        "Ramsch wird nach diesen Regeln nicht gespielt (Option ramsch).",
    "Say who dealt, so that the three players of the Ramsch are known.":
        "Bitte angeben, wer gegeben hat, damit die drei Spieler des Ramschs feststehen.",
    "A deal must be a JSON object.": "Ein Spiel muss ein JSON-Objekt sein.",
    "Bock is played only under the International Skat Order.":
        "Bock wird nur nach der Internationalen Skatordnung gespielt.",
    "A {kind} record is never doubled by Bock.":
        "Ein Eintrag „{kind}“ wird nie durch Bock verdoppelt.",
    "A table must be a JSON object.": "Ein Tisch muss ein JSON-Objekt sein.",
    "scoring must be classic, seeger_fabian or beer.":
        "scoring muss classic, seeger_fabian oder beer sein.",
    "Seeger-Fabian is scored under the International Skat Order at tables of 3 or 4.":
        "Seeger-Fabian wird nach der Internationalen Skatordnung an Dreier- und "
        "Vierertischen gewertet.",
    "Beer Skat is scored under the 1898 American rules.":
        "Bierskat wird nach den amerikanischen Regeln von 1898 gewertet.",
    "deals must be a list of deal records.": "deals muss eine Liste von Spielen sein.",
    "The Beer Skat sitting ended at deal {number}: {player} reached the limit.":
        "Die Bierskat-Runde endete mit Spiel {number}: {player} hat das Limit erreicht.",
    'Settling on Seeger-Fabian points needs scoring "seeger_fabian".':
        'Eine Abrechnung nach Seeger-Fabian-Punkten braucht die Wertung "seeger_fabian".',
    "The currency must be a code such as EUR.": "Die Währung muss ein Code wie EUR sein.",
    "Seat {seat} deals this deal, not {said!r}.": "Platz {seat} gibt dieses Spiel, nicht {said!r}.",
    "Contra is not scored in Beer Skat.": "Beim Bierskat wird Kontra nicht gewertet.",
    "An evening must be a JSON object.": "Ein Abend muss ein JSON-Objekt sein.",
    "An evening needs a list of one or more tables.":
        "Ein Abend braucht eine Liste mit mindestens einem Tisch.",
    "Table {number}: {message}": "Tisch {number}: {message}",
    # ------------------------------------------------------------ settlement.py
    "{what} must be a finite amount, not {value}.":
        "{what} muss ein endlicher Betrag sein, nicht {value}.",
    "{what} {value} is too large.": "{what} {value} ist zu groß.",
    "{what} cannot be negative ({value}).": "{what} darf nicht negativ sein ({value}).",
    "{what} {value} has more than {places} decimal places.":
        "{what} {value} hat mehr als {places} Nachkommastellen.",
    '{what} must be written as a string of decimals such as "0.50", not {raw!r}.':
        '{what} muss als Dezimalzahl in Textform geschrieben werden, etwa "0.50", '
        "nicht {raw!r}.",
    '{what} must be a decimal amount such as "0.50", not {raw!r}.':
        '{what} muss ein Dezimalbetrag sein, etwa "0.50", nicht {raw!r}.',
    '{what} must be a string of decimals such as "0.50", not {type}.':
        '{what} muss eine Dezimalzahl in Textform sein, etwa "0.50", nicht {type}.',
    "The currency must be a code of three capital letters such as EUR, not {currency!r}.":
        "Die Währung muss ein Code aus drei Großbuchstaben sein, etwa EUR, nicht {currency!r}.",
    "settlement.on must be one of {choices}.":
        "settlement.on muss einer dieser Werte sein: {choices}.",
    "settlement.round_totals_first must be true or false.":
        "settlement.round_totals_first muss true oder false sein.",
    "Give either a flat lost-game fee or fee tiers, not both: with lost_game_fee_tiers, "
    "lost_game_fee must be 0.":
        "Bitte entweder ein festes Verlustspielgeld oder Stufen angeben, nicht beides: mit "
        "lost_game_fee_tiers muss lost_game_fee 0 sein.",
    "{what} must be a Decimal amount, not {value!r}.":
        "{what} muss ein Decimal-Betrag sein, nicht {value!r}.",
    "Lost-game fee tiers must be a non-empty tuple of (from, fee) pairs.":
        "Die Stufen des Verlustspielgelds müssen ein nicht leeres Tupel aus (from, fee)-Paaren "
        "sein.",
    "Lost-game fee tier {number} must be (from, fee).":
        "Stufe {number} des Verlustspielgelds muss (from, fee) sein.",
    "Lost-game fee tier {number}: 'from' must be a whole number above {previous}, not "
    "{start!r} (tiers go in ascending order).":
        "Stufe {number} des Verlustspielgelds: 'from' muss eine ganze Zahl über {previous} "
        "sein, nicht {start!r} (die Stufen steigen an).",
    "The first lost-game fee tier must start from 1, not {start}.":
        "Die erste Stufe des Verlustspielgelds muss bei 1 beginnen, nicht bei {start}.",
    "Lost-game fee tier {number} starts too late.":
        "Stufe {number} des Verlustspielgelds beginnt zu spät.",
    'Lost-game fee tiers must be null or a non-empty list such as '
    '[{{"from": 1, "fee": "0.50"}}].':
        "Die Stufen des Verlustspielgelds müssen null oder eine nicht leere Liste sein, etwa "
        '[{{"from": 1, "fee": "0.50"}}].',
    'Lost-game fee tier {number} must be an object with exactly "from" and "fee".':
        'Stufe {number} des Verlustspielgelds muss ein Objekt mit genau "from" und "fee" sein.',
    "settlement must be an object (or null).": "settlement muss ein Objekt sein (oder null).",
    "Unknown settlement option {key!r}; known: {choices}.":
        "Unbekannte Abrechnungsoption {key!r}; bekannt sind: {choices}.",
    "settlement.on must be one of {choices}, not {on!r}.":
        "settlement.on muss einer dieser Werte sein: {choices}; nicht {on!r}.",
    "settlement.round_totals_first must be true or false, not {value!r}.":
        "settlement.round_totals_first muss true oder false sein, nicht {value!r}.",
    "The totals must be a list of points, one per seat.":
        "Die Summen müssen eine Liste von Punkten sein, eine je Platz.",
    "A settlement needs at least two players.":
        "Eine Abrechnung braucht mindestens zwei Spieler.",
    "Seat {seat}'s total must be a whole number of points, not {total!r}.":
        "Die Summe von Platz {seat} muss eine ganze Punktzahl sein, nicht {total!r}.",
    "Seat {seat}'s total {total} is not a plausible score.":
        "Die Summe {total} von Platz {seat} ist kein plausibler Punktestand.",
    "{what} must be a list with one number per seat.":
        "{what} muss eine Liste mit einer Zahl je Platz sein.",
    "{what} must have one number per seat: {players}, not {count}.":
        "{what} braucht eine Zahl je Platz: {players}, nicht {count}.",
    "{what}: seat {seat} needs a whole number of at least 0, not {count!r}.":
        "{what}: Platz {seat} braucht eine ganze Zahl ab 0, nicht {count!r}.",
    "The stake must be a Decimal (see parse_stake), not {stake!r}.":
        "Der Einsatz muss ein Decimal sein (siehe parse_stake), nicht {stake!r}.",
    "{what} {amount} is finer than the smallest unit of {currency} ({unit}).":
        "{what} {amount} ist feiner als die kleinste Einheit von {currency} ({unit}).",
    "The options must be SettlementOptions.": "Die Optionen müssen SettlementOptions sein.",
    "The lost-game fee needs each seat's lost games.":
        "Das Verlustspielgeld braucht die verlorenen Spiele jedes Platzes.",
    "The passed-deal fee needs each seat's passed deals.":
        "Das Geld für eingepasste Spiele braucht die eingepassten Spiele jedes Platzes.",
    # ------------------------------------------------------------ league.py
    "A league needs one or more teams.": "Eine Liga braucht mindestens eine Mannschaft.",
    'Two teams are named "{team}".': "Zwei Mannschaften heißen „{team}“.",
    'The team "{team}" has no players.': "Die Mannschaft „{team}“ hat keine Spieler.",
    '"{player}" plays for "{first}" and for "{second}".':
        "„{player}“ spielt für „{first}“ und für „{second}“.",
    "A series names the players who played it; this one names nobody.":
        "Eine Serie nennt die Spieler, die sie gespielt haben; diese nennt niemanden.",
    '"{player}" is not on a team.': "„{player}“ gehört zu keiner Mannschaft.",
    'The day names "{team}", which is not a team.':
        "Der Spieltag nennt „{team}“, das keine Mannschaft ist.",
    '"{player}" plays for "{team}", which does not meet on this day.':
        "„{player}“ spielt für „{team}“, die an diesem Spieltag nicht antritt.",
    "The input must be a JSON object with teams and days, not {value}.":
        "Die Eingabe muss ein JSON-Objekt mit teams und days sein, nicht {value}.",
    "Expected a JSON object, not {value}.": "Hier gehört ein JSON-Objekt hin, nicht {value}.",
    'The field "{key}" is missing.': "Das Feld „{key}“ fehlt.",
    "Expected a list, not {value}.": "Hier gehört eine Liste hin, nicht {value}.",
    "Expected a name (text, not empty), not {value}.":
        "Hier gehört ein Name hin (Text, nicht leer), nicht {value}.",
    'The Spielpunkte of "{player}" must be a whole number, not {value}.':
        "Die Spielpunkte von „{player}“ müssen eine ganze Zahl sein, nicht {value}.",
}
