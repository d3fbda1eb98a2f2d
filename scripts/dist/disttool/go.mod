module fixthis/scripts/dist/disttool

go 1.26.8

require (
	github.com/tc-hib/winres v0.3.1
	golang.org/x/image v0.48.0
)

require github.com/nfnt/resize v0.0.0-20180221191011-83c6a9932646 // indirect
