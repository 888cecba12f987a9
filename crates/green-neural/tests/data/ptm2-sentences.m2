S The cat sit on the mat yesterday .
A 2 3|||R:VERB:TENSE|||sat|||REQUIRED|||-NONE-|||0
A 2 3|||R:VERB:SFORM|||sits|||REQUIRED|||-NONE-|||1
A 6 7|||U:ADV|||-NONE-|||REQUIRED|||-NONE-|||1

S She have two brother and one sister .
A 1 2|||R:VERB:SVA|||has|||REQUIRED|||-NONE-|||0
A 3 4|||R:NOUN:NUM|||brothers|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:SVA|||has|||REQUIRED|||-NONE-|||1
A 3 4|||R:NOUN:NUM|||brothers|||REQUIRED|||-NONE-|||1

S I am agree with you about this problem .
A 1 2|||U:VERB|||-NONE-|||REQUIRED|||-NONE-|||0
A 1 3|||R:OTHER|||agree|||REQUIRED|||-NONE-|||1
A 7 8|||R:NOUN|||issue|||REQUIRED|||-NONE-|||1

S We discussed about the plan in last meeting .
A 2 3|||U:PREP|||-NONE-|||REQUIRED|||-NONE-|||0
A 5 5|||M:DET|||the|||REQUIRED|||-NONE-|||0
A 2 3|||U:PREP|||-NONE-|||REQUIRED|||-NONE-|||1
A 5 6|||R:PREP|||at|||REQUIRED|||-NONE-|||1
A 6 6|||M:DET|||the|||REQUIRED|||-NONE-|||1

S This is a good day .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A 3 4|||R:ADJ|||nice|||REQUIRED|||-NONE-|||1

S He go to school by bus every days .
A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0
A 7 8|||R:NOUN:NUM|||day|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:TENSE|||went|||REQUIRED|||-NONE-|||1
A 6 8|||R:OTHER|||each day|||REQUIRED|||-NONE-|||1

S Many people think that money is the most important thing in the life .
A 11 12|||U:DET|||-NONE-|||REQUIRED|||-NONE-|||0
A 11 12|||U:DET|||-NONE-|||REQUIRED|||-NONE-|||1
A 0 1|||R:DET|||Most|||REQUIRED|||-NONE-|||1

S There is many reasons for this .
A 1 2|||R:VERB:SVA|||are|||REQUIRED|||-NONE-|||0
A 1 2|||R:VERB:SVA|||are|||REQUIRED|||-NONE-|||1
A 6 6|||M:OTHER|||decision|||REQUIRED|||-NONE-|||1

S Yesterday I buyed a new car and drive it home .
A 2 3|||R:VERB:INFL|||bought|||REQUIRED|||-NONE-|||0
A 7 8|||R:VERB:TENSE|||drove|||REQUIRED|||-NONE-|||0
A 2 3|||R:VERB:INFL|||bought|||REQUIRED|||-NONE-|||1
A 7 8|||R:VERB:TENSE|||drove|||REQUIRED|||-NONE-|||1
A 9 10|||U:ADV|||-NONE-|||REQUIRED|||-NONE-|||1

S The weather are very cold in winter , so we stays at home .
A 2 3|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||0
A 10 11|||R:VERB:SVA|||stay|||REQUIRED|||-NONE-|||0
A 2 3|||R:VERB:SVA|||is|||REQUIRED|||-NONE-|||1
A 10 11|||R:VERB:SVA|||stay|||REQUIRED|||-NONE-|||1
A 5 5|||M:DET|||the|||REQUIRED|||-NONE-|||1

S Children likes to play games .
A 1 2|||R:VERB:SVA|||like|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S A good teacher .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S My friend and me went to the cinema last week .
A 3 4|||R:PRON|||I|||REQUIRED|||-NONE-|||0
A 3 4|||R:PRON|||I|||REQUIRED|||-NONE-|||1
A 7 8|||R:NOUN|||movies|||REQUIRED|||-NONE-|||1
