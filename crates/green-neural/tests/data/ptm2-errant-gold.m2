S The cat sit on the mat yesterday .
A 2 3|||R|||sat|||REQUIRED|||-NONE-|||0
A 2 3|||R|||sits|||REQUIRED|||-NONE-|||1
A 6 7|||U||||||REQUIRED|||-NONE-|||1

S She have two brother and one sister .
A 1 2|||R|||has|||REQUIRED|||-NONE-|||0
A 3 4|||R|||brothers|||REQUIRED|||-NONE-|||0
A 1 2|||R|||has|||REQUIRED|||-NONE-|||1
A 3 4|||R|||brothers|||REQUIRED|||-NONE-|||1

S I am agree with you about this problem .
A 1 2|||U||||||REQUIRED|||-NONE-|||0
A 1 2|||U||||||REQUIRED|||-NONE-|||1
A 7 8|||R|||issue|||REQUIRED|||-NONE-|||1

S We discussed about the plan in last meeting .
A 2 3|||U||||||REQUIRED|||-NONE-|||0
A 5 5|||M|||the|||REQUIRED|||-NONE-|||0
A 2 3|||U||||||REQUIRED|||-NONE-|||1
A 5 6|||R|||at the|||REQUIRED|||-NONE-|||1

S This is a good day .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A 3 4|||R|||nice|||REQUIRED|||-NONE-|||1
A 2 3|||UNK|||a|||REQUIRED|||-NONE-|||0

S He go to school by bus every days .
A 1 2|||R|||goes|||REQUIRED|||-NONE-|||0
A 7 8|||R|||day|||REQUIRED|||-NONE-|||0
A 1 2|||R|||went|||REQUIRED|||-NONE-|||1
A 6 8|||R|||each day|||REQUIRED|||-NONE-|||1

S Many people think that money is the most important thing in the life .
A 11 12|||U||||||REQUIRED|||-NONE-|||0
A 0 1|||R|||Most|||REQUIRED|||-NONE-|||1
A 11 12|||U||||||REQUIRED|||-NONE-|||1

S There is many reasons for this .
A 1 2|||R|||are|||REQUIRED|||-NONE-|||0
A 1 2|||R|||are|||REQUIRED|||-NONE-|||1
A 6 6|||M|||decision|||REQUIRED|||-NONE-|||1

S Yesterday I buyed a new car and drive it home .
A 2 3|||R|||bought|||REQUIRED|||-NONE-|||0
A 7 8|||R|||drove|||REQUIRED|||-NONE-|||0
A 2 3|||R|||bought|||REQUIRED|||-NONE-|||1
A 7 8|||R|||drove|||REQUIRED|||-NONE-|||1
A 9 10|||U||||||REQUIRED|||-NONE-|||1

S The weather are very cold in winter , so we stays at home .
A 2 3|||R|||is|||REQUIRED|||-NONE-|||0
A 10 11|||R|||stay|||REQUIRED|||-NONE-|||0
A 2 3|||R|||is|||REQUIRED|||-NONE-|||1
A 5 5|||M|||the|||REQUIRED|||-NONE-|||1
A 10 11|||R|||stay|||REQUIRED|||-NONE-|||1

S Children likes to play games .
A 1 2|||R|||like|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S A good teacher .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S My friend and me went to the cinema last week .
A 3 4|||R|||I|||REQUIRED|||-NONE-|||0
A 3 4|||R|||I|||REQUIRED|||-NONE-|||1
A 7 8|||R|||movies|||REQUIRED|||-NONE-|||1

