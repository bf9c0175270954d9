module github.com/blindfish-rbc/blindfish

go 1.26.8

require (
	github.com/corentings/chess/v2 v2.3.2
	golang.org/x/sync v0.24.0
)

require golang.org/x/exp v0.0.0-20250128182459-e0ece0dbea4c // indirect
