import Foundation
import Testing
import BookAPI
import BookApp
import RefreshButton
import Salvo

/// Three modules, as an app splits them: `BookAPI` configures typed calls, `BookApp`'s model sets
/// their handlers, `RefreshButton` fires them as `any Fireable` without naming a model type.
@Suite struct FireableAcrossModulesTests {
    @Test func aRefreshButtonFiresTypedCallsItCannotNameAndTheModelGetsTypedValues() async {
        let api = BookAPI(firingFunction: .mock(BookAPI.mockRoutes(library: library)))
        let model = ShelfModel()
        let button = RefreshButton(calls: model.refreshCalls(book: api.typedBook(2), shelf: api.shelf()))

        button.tap()
        await model.waitForOutcomes(2)

        #expect(model.book == library[1])
        #expect(model.shelf == Array(library.prefix(2)))
        #expect(model.problems.isEmpty)
    }

    @Test func aFailureReachesTheModelWithItsDecodedErrorBody() async {
        let api = BookAPI(firingFunction: .mock(BookAPI.mockRoutes(library: library)))
        let model = ShelfModel()
        let button = RefreshButton(calls: model.refreshCalls(book: api.typedBook(9), shelf: api.shelf()))

        button.tap()
        await model.waitForOutcomes(2)

        #expect(model.book == nil)
        #expect(model.problems == ["no such book"])
        #expect(model.shelf.count == 2)
    }

    @Test func aTypedRefresherKeepsTheValueTypeAndHandsOnTheErrorBody() async {
        let api = BookAPI(firingFunction: .mock(BookAPI.mockRoutes(library: library)))
        let model = ShelfModel()
        let found = model.refresher(of: api.typedBook(3))
        let missing = model.refresher(of: api.typedBook(9))

        await RefreshGroup([found, missing]).refresh()
        await model.waitForOutcomes(1)

        #expect(found.value == library[2])
        #expect(missing.error?.statusCode == 404)
        #expect(model.problems == ["no such book"])
    }

    @Test func aRefreshGroupFiresTheModelsCallsWithItsRefresherAndReturnsOnceTheyLanded() async {
        let api = BookAPI(firingFunction: .mock(BookAPI.mockRoutes(library: library)))
        let model = ShelfModel()
        let found = model.refresher(of: api.typedBook(3))
        let screen = RefreshGroup([found], firing: model.refreshCalls(book: api.typedBook(2), shelf: api.shelf()))

        await screen.refresh()

        // Not waited for: the group returned after the calls' handlers ran.
        #expect(model.outcomes == 2)
        #expect(model.book == library[1])
        #expect(model.shelf == Array(library.prefix(2)))
        #expect(found.value == library[2])
        #expect(screen.isRefreshing == false)
    }

    @Test func aPagersRefusedPageReachesTheModelWithItsDecodedErrorBody() async {
        let routes = MockRoutes([
            MockRoute(.get, "/books", onMainActor: { request in
                let encoder = JSONEncoder()
                encoder.keyEncodingStrategy = .convertToSnakeCase
                guard request.query["page"] == "2" else { return .json(Array(library.prefix(2)), encoder: encoder) }
                return .json(APIProblem(message: "shelf is being restocked"), status: 422)
            }),
        ])
        let model = ShelfModel()
        let pager = model.pager(of: BookAPI(firingFunction: .mock(routes)).shelf())

        await pager.loadNextPage()
        await pager.loadNextPage()
        await model.waitForOutcomes(1)

        #expect(model.problems == ["shelf is being restocked"])
        #expect(pager.items == Array(library.prefix(2)))
        #expect(pager.error?.statusCode == 422)
    }
}
